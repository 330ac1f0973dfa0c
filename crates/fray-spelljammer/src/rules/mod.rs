//! The rules of the seed, one module per part: the round and its segments, strikes and damage,
//! tables, legality.

pub mod legal;
pub mod movement;
pub mod round;
pub mod strike;
pub mod tables;
