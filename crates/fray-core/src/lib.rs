//! Core (placeholder).
