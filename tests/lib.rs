//! The integration tests, linked into one binary (`autotests = false` in Cargo.toml).

mod common;
mod diagnostics;
mod cli;
