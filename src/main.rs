//! The `cgl` command line.

use std::process::ExitCode;

fn main() -> ExitCode {
    if let Some(missing) = missing_cpu_feature() {
        eprintln!(
            "error: this build of cgl needs a processor with {missing} (x86-64-v2, \
             .cargo/config.toml)\n  help: rebuild it with RUSTFLAGS=\"-C target-cpu=native\""
        );
        return ExitCode::from(2);
    }
    // Evaluation recurses over expressions and user functions (both bounded by limits), never
    // over the game graph; a large stack makes those limits, not the stack, the bound.
    let worker = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(cgl::cli::main);
    let code = match worker.map(|handle| handle.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("error: cgl stopped unexpectedly (internal error); please report this");
            ExitCode::from(2)
        }
    };
    // `CGL_PATHS=FILE`: which of the compiled engine's paths this process ran, for the
    // differential sweeps' report (`tests/differential.rs`); nothing else is written.
    if let Some(file) = std::env::var_os("CGL_PATHS") {
        let _ = std::fs::write(file, cgl::eval::compiled::reached::report());
    }
    // `CGL_PEAK_MEMORY=FILE`: the kernel's high-water mark of this process's resident memory
    // (`VmHWM`, KiB), for the tests that hold `--max-memory` to what it says
    // (`tests/hostile.rs`); nothing else is written.
    if let Some(file) = std::env::var_os("CGL_PEAK_MEMORY") {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let peak = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .map(|kib| kib.trim().trim_end_matches("kB").trim().to_string());
        let _ = std::fs::write(file, peak.unwrap_or_default());
    }
    code
}

/// A feature this build was compiled to use that the processor lacks: the lane kernels are
/// built for x86-64-v2 (see .cargo/config.toml), whose instructions would stop an older
/// processor with no message.
fn missing_cpu_feature() -> Option<&'static str> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse4.2"))]
    {
        if !std::is_x86_feature_detected!("sse4.2") {
            return Some("SSE4.2");
        }
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "popcnt"))]
    {
        if !std::is_x86_feature_detected!("popcnt") {
            return Some("POPCNT");
        }
    }
    None
}
