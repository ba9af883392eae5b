//! Watching and stopping a solve from another thread: the handle a front end keeps while the
//! library searches (a progress display reads the node count, a web page's cancel button or a
//! time budget raises the stop flag).

use crate::search::proof::RootReport;
pub use crate::search::proof::{RootMoves, RootNumbers};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

/// Why a solve stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// [`Control::cancel`] was called.
    Cancelled,
    /// The time limit passed.
    TimeLimit,
}

/// Progress and cancellation of one solve at a time. Share it by reference with the thread
/// that displays progress or cancels; the solving thread passes it to the solver.
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    reason: AtomicU8,
    nodes: AtomicU64,
    /// The proof search's root numbers and moves.
    root: RootReport,
    /// Settled positions in the position store (0 without one).
    settled: AtomicU64,
    /// How full the main table is, in thousandths (sampled now and then).
    fill: AtomicU64,
    /// Whether the main table (a proof search's proof table) is on 1 GiB pages, and whether its
    /// endgame table is (worth knowing when a long solve is slow).
    gigantic_pages: AtomicBool,
    endgame_gigantic_pages: AtomicBool,
    /// The game's move names by cell, set by the solver (see [`Control::working_on`]).
    move_names: Mutex<Vec<String>>,
}

impl Control {
    /// A fresh control: not stopped, no nodes.
    pub fn new() -> Control {
        Control::default()
    }

    /// Stops the solve as soon as the search looks at its flag (every few thousand nodes).
    pub fn cancel(&self) {
        self.raise(StopReason::Cancelled);
    }

    /// Stops for `reason` (the first reason given sticks).
    pub(crate) fn raise(&self, reason: StopReason) {
        let code = match reason {
            StopReason::Cancelled => 1,
            StopReason::TimeLimit => 2,
        };
        let _ = self
            .reason
            .compare_exchange(0, code, Ordering::Relaxed, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Why the solve was stopped, if it was.
    pub fn stopped(&self) -> Option<StopReason> {
        match self.reason.load(Ordering::Relaxed) {
            1 => Some(StopReason::Cancelled),
            2 => Some(StopReason::TimeLimit),
            _ => None,
        }
    }

    /// Nodes searched so far (advanced by the search every 65,536 nodes or so).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The proof and disproof numbers of the question the proof-number search is on now, at the
    /// position asked about, if it has published them.
    pub fn root_numbers(&self) -> Option<RootNumbers> {
        self.root.numbers()
    }

    /// How many of the moves at the position asked about the proof search has settled in the
    /// question it is on now, each way, if it has published them.
    pub fn root_moves(&self) -> Option<RootMoves> {
        self.root.moves()
    }

    /// The move the proof search is in at the position asked about (or at the end of its
    /// forced line, [`Control::forced_line`]), named as the game names moves, if it has
    /// published one.
    pub fn working_on(&self) -> Option<String> {
        let cell = self.root.moves()?.working_on? as usize;
        self.move_names.lock().ok()?.get(cell).cloned()
    }

    /// The moves from the position asked about to the one [`Control::root_moves`] describes,
    /// each the only move of its position that does not lose at once (see
    /// [`crate::search::proof::ForcedLine`]): empty when they describe the position itself.
    pub fn forced_line(&self) -> Vec<String> {
        let line = self.root.line();
        let names = self.move_names.lock().ok();
        line.cells()
            .iter()
            .map(|&c| {
                let name = names.as_ref().and_then(|n| n.get(c as usize));
                name.cloned().unwrap_or_else(|| format!("cell {c}"))
            })
            .collect()
    }

    /// Positions settled in the position store so far (0 without one).
    pub fn settled(&self) -> u64 {
        self.settled.load(Ordering::Relaxed)
    }

    /// How full the search's main table is, 0 to 1 (sampled about once a second while a proof
    /// search runs; 0 before).
    pub fn table_fill(&self) -> f64 {
        self.fill.load(Ordering::Relaxed) as f64 / 1000.0
    }

    pub(crate) fn set_settled(&self, n: u64) {
        self.settled.store(n, Ordering::Relaxed);
    }

    /// The names of the moves of the game being solved, by cell index (0..64).
    pub(crate) fn set_move_names(&self, names: Vec<String>) {
        if let Ok(mut m) = self.move_names.lock() {
            *m = names;
        }
    }

    pub(crate) fn set_table_fill(&self, fill: f64) {
        self.fill
            .store((fill * 1000.0).round() as u64, Ordering::Relaxed);
    }

    /// Whether the search's main table is on 1 GiB pages ([`crate::util::huge_pages`]; false
    /// before a proof search has reported).
    pub fn table_on_gigantic_pages(&self) -> bool {
        self.gigantic_pages.load(Ordering::Relaxed)
    }

    /// Whether the proof search's endgame table (the position store's memory layer, over a
    /// store) is on 1 GiB pages (false before a proof search has reported).
    pub fn endgame_table_on_gigantic_pages(&self) -> bool {
        self.endgame_gigantic_pages.load(Ordering::Relaxed)
    }

    pub(crate) fn set_tables_on_gigantic_pages(&self, main: bool, endgame: bool) {
        self.gigantic_pages.store(main, Ordering::Relaxed);
        self.endgame_gigantic_pages
            .store(endgame, Ordering::Relaxed);
    }

    /// Where the proof search publishes its root's state.
    pub(crate) fn root_report(&self) -> &RootReport {
        &self.root
    }

    /// The flag the search engines watch.
    pub(crate) fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// The counter the search engines advance.
    pub(crate) fn node_counter(&self) -> &AtomicU64 {
        &self.nodes
    }

    /// Runs `work` while a timer raises the stop flag when `limit` has passed.
    pub(crate) fn run_timed<R>(&self, limit: Option<Duration>, work: impl FnOnce() -> R) -> R {
        match limit {
            Some(limit) => with_ticks(limit, || self.raise(StopReason::TimeLimit), work),
            None => work(),
        }
    }
}

/// Runs `work` on this thread while another calls `tick` every `period`; the ticks end, at
/// once, when the work does.
pub(crate) fn with_ticks<R>(
    period: Duration,
    mut tick: impl FnMut() + Send,
    work: impl FnOnce() -> R,
) -> R {
    let (done, wait) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(period) {
                tick();
            }
        });
        let r = work();
        drop(done);
        r
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn the_first_reason_sticks_and_the_timer_fires() {
        let c = Control::new();
        assert_eq!(c.stopped(), None);
        c.cancel();
        assert_eq!(c.stopped(), Some(StopReason::Cancelled));
        let t = Control::new();
        t.run_timed(Some(Duration::from_millis(20)), || {
            while !t.stop_flag().load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        assert_eq!(t.stopped(), Some(StopReason::TimeLimit));
        let quick = Control::new();
        let start = Instant::now();
        assert_eq!(quick.run_timed(Some(Duration::from_secs(60)), || 7), 7);
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the timer ends with the work"
        );
        assert_eq!(quick.stopped(), None);
    }
}
