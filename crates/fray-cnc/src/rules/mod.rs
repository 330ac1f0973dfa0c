//! The rules of C&C combat, one module per part of the seed.

pub mod attack;
pub mod checks;
pub mod damage;
pub mod defense;
pub mod intervene;
pub mod legal;
pub mod magic;
pub mod maneuvers;
pub mod mods;
pub mod movement;
pub mod odds_key;
pub mod round;
