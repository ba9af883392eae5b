//! Stop signals for the long commands (`solve`, `analyze`, `prove`, `book build`).
//!
//! The first SIGINT (Ctrl-C) or SIGTERM (`kill`'s default, a batch system's time limit, a
//! service manager's stop) stops the search as its time limit would: the position store keeps
//! what was proved, a proof search writes its snapshot, and the command ends with "not decided".
//! A second one ends the process at once (exit status 128 + the signal's number, the shell's
//! convention: 130 for SIGINT, 143 for SIGTERM). SIGHUP keeps its default, so a run started
//! under `nohup` still outlives its terminal.
//!
//! The signals are delivered to a thread of ours (`signal-hook`), where the stop is an ordinary
//! call; where there are no Unix signals, `ctrlc` gives Ctrl-C alone.

use std::sync::Arc;
use zugzwang::solver::Control;

/// Stops `control` on the first stop signal and ends the process on the second (see the
/// module's doc). A handler that cannot be installed is reported on stderr, once: the command
/// still runs, but a signal then kills it without saving.
#[cfg(unix)]
pub fn stop_on_signals(control: Arc<Control>) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;
    let mut signals = match Signals::new([SIGINT, SIGTERM]) {
        Ok(signals) => signals,
        Err(e) => {
            eprintln!("warning: stop signals not handled ({e}): an interrupt will not save");
            return;
        }
    };
    std::thread::spawn(move || {
        let mut seen = false;
        for signal in signals.forever() {
            if seen {
                std::process::exit(128 + signal);
            }
            seen = true;
            control.cancel();
        }
    });
}

/// Stops `control` on the first Ctrl-C and ends the process on the second (see the module's
/// doc).
#[cfg(not(unix))]
pub fn stop_on_signals(control: Arc<Control>) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let seen = AtomicBool::new(false);
    if let Err(e) = ctrlc::set_handler(move || {
        if seen.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
        control.cancel();
    }) {
        eprintln!("warning: Ctrl-C not handled ({e}): an interrupt will not save");
    }
}
