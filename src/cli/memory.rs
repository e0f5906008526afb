//! The default of `--max-memory`: a share of the memory the machine has available when cgl
//! starts, so that a game that fits in memory runs without flags, and one that does not stops
//! with a diagnostic before the machine starts swapping.
//!
//! The default is half of `MemAvailable` (/proc/meminfo), split between the files checked at
//! once. There is no default position limit: every position counts 180 bytes of this budget.

/// The default used where the available memory cannot be read (not Linux, no /proc).
const UNKNOWN_MIB: usize = 4096;
/// The least default, whatever the machine reports: small analyses must still run.
const LEAST_MIB: usize = 256;

/// Half the memory available now, shared by `at_once` sessions run at the same time (each
/// gets its part), in MiB; [`UNKNOWN_MIB`] where the available memory is not known.
pub fn default_max_memory_mib(at_once: usize) -> usize {
    match available_mib() {
        Some(mib) => share(mib, at_once),
        None => UNKNOWN_MIB,
    }
}

/// Half of `available_mib`, split `at_once` ways, at least [`LEAST_MIB`].
fn share(available_mib: usize, at_once: usize) -> usize {
    (available_mib / 2 / at_once.max(1)).max(LEAST_MIB)
}

/// `MemAvailable` of /proc/meminfo (the memory that can be had without swapping), in MiB.
fn available_mib() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_available_kib(&text).map(|kib| kib >> 10)
}

fn parse_available_kib(meminfo: &str) -> Option<usize> {
    let line = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?;
    line.trim().strip_suffix("kB")?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_available_memory() {
        let text = "MemTotal:       24684084 kB\nMemFree:         1000 kB\n\
                    MemAvailable:   22507008 kB\nBuffers: 1 kB\n";
        assert_eq!(parse_available_kib(text), Some(22_507_008));
        assert_eq!(parse_available_kib("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_available_kib("MemAvailable: lots\n"), None);
    }

    #[test]
    fn half_the_memory_shared_by_the_sessions() {
        assert_eq!(share(21_979, 1), 10_989);
        assert_eq!(share(21_979, 2), 5_494);
        assert_eq!(share(1_000, 4), LEAST_MIB);
        assert_eq!(share(8_192, 0), 4_096);
    }
}
