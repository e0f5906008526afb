//! `cgl serve`'s arguments and their defaults; the server is `crate::serve`.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;

use super::EngineOptions;

/// The defaults of each evaluation's limits: a class shares one machine, and a student's
/// game that never ends must not hold it.
pub const DEFAULT_SECONDS: f64 = 10.0;
/// Memory of one evaluation, MiB.
pub const DEFAULT_MEMORY_MIB: usize = 512;
/// Positions of one evaluation.
pub const DEFAULT_POSITIONS: usize = 2_000_000;
/// Largest request body, KiB.
pub const DEFAULT_BODY_KIB: usize = 1024;

/// `cgl serve`.
#[derive(Debug, Args)]
#[command(
    mut_arg("max_memory", |a| a.help(
        "Most memory (MiB) one request may take: its game graph, estimated from its size \
         (and, apart, its table of game values) [default: 512]"
    )),
    mut_arg("max_positions", |a| a.help(
        "Most positions (and compounds) one request may explore [default: 2000000]"
    )),
    mut_arg("max_file_size", |a| a.help(
        "Largest file read (MiB), a file opened or imported [default: 16]"
    )),
    mut_arg("threads", |a| a.help(
        "Threads one request may use (requests run side by side) [default: 1]"
    )),
    after_help = "Each request is bounded: by default 10 seconds (--timeout), 512 MiB \
                  (--max-memory), 2,000,000 positions (--max-positions) and one thread \
                  (--threads); --evaluations of them run at once, the rest wait their turn. \
                  Example: cgl serve examples --open"
)]
pub struct Serve {
    /// The folder whose .game files the page lists and opens (read-only); imports of the
    /// files edited on the page are read inside it only.
    /// [default: the current folder]
    #[arg(value_name = "FOLDER")]
    folder: Option<PathBuf>,
    /// The same as FOLDER.
    #[arg(long, value_name = "FOLDER", conflicts_with = "folder")]
    root: Option<PathBuf>,
    /// The address and port to listen on (port 0: any free port; the address is printed).
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8000")]
    listen: SocketAddr,
    /// Allow an address other than loopback: anyone on the network can then use the page.
    #[arg(long)]
    public: bool,
    /// Open the page in the desktop's browser.
    #[arg(long)]
    open: bool,
    /// Most seconds one request may compute [default: 10].
    #[arg(long, value_name = "SECONDS", value_parser = super::parse_seconds)]
    timeout: Option<std::time::Duration>,
    /// Evaluations at once; more wait their turn [default: the cores available].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    evaluations: Option<u16>,
    /// Largest request body (KiB); larger ones are refused (413).
    #[arg(long, value_name = "KIB", default_value_t = DEFAULT_BODY_KIB)]
    max_body: usize,
    #[command(flatten)]
    options: EngineOptions,
}

impl Serve {
    /// Runs the server.
    pub fn run(self, out: &mut dyn std::io::Write, err: &mut dyn std::io::Write) -> u8 {
        let mut config = self.options.config();
        let memory = self
            .options
            .max_memory
            .unwrap_or(DEFAULT_MEMORY_MIB)
            .saturating_mul(1 << 20);
        config.graph.max_memory = memory;
        // Requests run side by side; each query on one thread.
        config.graph.threads = self.options.threads.map_or(1, |n| n as usize);
        let positions = self.options.max_positions.unwrap_or(DEFAULT_POSITIONS);
        config.graph.max_positions = positions;
        let limits = crate::serve::Limits {
            config,
            policy: self.options.policy(None),
            seconds: self.timeout.map_or(DEFAULT_SECONDS, |d| d.as_secs_f64()),
            memory,
            positions,
        };
        let evaluations = self
            .evaluations
            .map_or_else(super::default_threads, usize::from);
        crate::serve::run(
            crate::serve::Config {
                listen: self.listen,
                public: self.public,
                root: self
                    .root
                    .or(self.folder)
                    .unwrap_or_else(|| PathBuf::from(".")),
                open: self.open,
                evaluations,
                max_body: self.max_body.saturating_mul(1024),
                limits,
            },
            out,
            err,
        )
    }
}
