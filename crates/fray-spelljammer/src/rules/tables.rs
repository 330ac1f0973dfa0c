//! The seed's tables and small formulas as pure functions.
