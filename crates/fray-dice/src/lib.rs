//! Dice-expression language (placeholder).
