//! The `cgl` command line.

use std::process::ExitCode;

fn main() -> ExitCode {
    // Evaluation recurses over expressions and user functions (both bounded by limits), never
    // over the game graph; a large stack makes those limits, not the stack, the bound.
    let worker = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(cgl::cli::main);
    match worker.map(|handle| handle.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("error: cgl stopped unexpectedly (internal error); please report this");
            ExitCode::from(2)
        }
    }
}
