//! The integration tests, linked into one binary (`autotests = false` in Cargo.toml).

// Tests may unwrap and panic: a panic is how a test fails.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod api;
mod bench_answers;
mod bombs;
mod boundaries;
mod budgets;
mod cgt;
mod ci;
mod cli;
mod common;
mod compiled;
mod compiled_lists;
mod deep;
mod dense;
mod diagnostics;
mod differential;
mod differential_kinds;
mod domain;
mod editors;
mod engines;
mod examples;
mod fragment;
mod fuzz;
mod graph;
mod help_domains;
mod hidden_constants;
mod hoisting;
mod instance_order;
mod isolation;
mod layers;
mod loopy;
mod lsp;
mod newcomer;
mod parallel;
mod partizan;
mod payoff;
mod pictures;
mod plot;
mod plot_text;
mod progress;
mod properties;
mod random_graphs;
mod rational_oracle;
mod reliability;
mod repl;
mod seed_brute;
mod serve;
mod spec;
mod strategic;
mod strategic_deadlines;
mod strings;
mod sweep;
mod values;
