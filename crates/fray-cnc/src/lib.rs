//! C&C (placeholder).
