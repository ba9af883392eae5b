//! Many workers on one machine, simulated: the real master and real jobs, a simulated clock.
//!
//! [`SimTransport`] runs every job at once, on this thread, with a real worker of its own (each
//! simulated worker has its own tables, as a rank would), and measures its seconds. Its report
//! is delivered when the simulated worker would have finished it: the clock advances by the
//! job's measured seconds from when the worker was free, plus a message latency each way, and
//! by the master's own measured time between two events. So the master's choices, the
//! speculation's waste and the workers' idle time are those of `workers` real workers whose
//! jobs cost what they cost here — what the simulation cannot show is contention (memory
//! bandwidth, a shared file system) and a network slower than `latency`.

use super::transport::{Event, Handler, Transport};
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

/// A simulated event: a report due at `at` seconds.
struct Due {
    at: f64,
    seq: u64,
    worker: usize,
    bytes: Vec<u8>,
}

impl PartialEq for Due {
    fn eq(&self, o: &Self) -> bool {
        self.at == o.at && self.seq == o.seq
    }
}
impl Eq for Due {}
impl PartialOrd for Due {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Due {
    // earliest first in a max-heap
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        o.at.total_cmp(&self.at).then(o.seq.cmp(&self.seq))
    }
}

/// What a simulation measured.
#[derive(Clone, Debug, Default)]
pub struct SimStats {
    /// Simulated wall-clock seconds until the last event.
    pub seconds: f64,
    /// Seconds the simulated workers spent on jobs (measured here, one at a time).
    pub busy: f64,
    /// Seconds the master spent between events (measured here).
    pub master: f64,
}

impl SimStats {
    /// The workers' idle share of `workers` x `seconds`.
    pub fn idle_share(&self, workers: usize) -> f64 {
        if self.seconds <= 0.0 {
            return 0.0;
        }
        (1.0 - self.busy / (workers as f64 * self.seconds)).max(0.0)
    }
}

/// The simulated transport; see the module documentation.
pub struct SimTransport {
    handlers: Vec<Option<Handler>>,
    make: Box<dyn Fn(usize) -> Handler>,
    /// When each worker is free again.
    free_at: Vec<f64>,
    due: BinaryHeap<Due>,
    now: f64,
    latency: f64,
    seq: u64,
    /// When the master got its last event (real time): what it did since is its own cost.
    last_return: Option<Instant>,
    /// What was measured.
    pub stats: SimStats,
}

impl SimTransport {
    /// `workers` simulated workers, worker `i` running `make(i)` (made when first used), with
    /// `latency` seconds for a message each way.
    pub fn new(workers: usize, latency: f64, make: impl Fn(usize) -> Handler + 'static) -> Self {
        SimTransport {
            handlers: (0..workers).map(|_| None).collect(),
            make: Box::new(make),
            free_at: vec![0.0; workers],
            due: BinaryHeap::new(),
            now: 0.0,
            latency,
            seq: 0,
            last_return: None,
            stats: SimStats::default(),
        }
    }

    /// The master's time since its last event, onto the clock.
    fn charge_master(&mut self) {
        if let Some(t) = self.last_return.take() {
            let s = t.elapsed().as_secs_f64();
            self.now += s;
            self.stats.master += s;
        }
    }
}

impl Transport for SimTransport {
    fn workers(&self) -> usize {
        self.handlers.len()
    }

    fn send(&mut self, worker: usize, bytes: Vec<u8>) -> Result<(), String> {
        self.charge_master();
        let handler = self.handlers[worker].get_or_insert_with(|| (self.make)(worker));
        let start = Instant::now();
        let report = handler(&bytes);
        let took = start.elapsed().as_secs_f64();
        // the job starts when it has arrived and the worker is free, and runs `took`
        let begin = (self.now + self.latency).max(self.free_at[worker]);
        self.free_at[worker] = begin + took;
        self.stats.busy += took;
        if let Some(bytes) = report {
            self.seq += 1;
            self.due.push(Due {
                at: begin + took + self.latency,
                seq: self.seq,
                worker,
                bytes,
            });
        }
        self.last_return = Some(Instant::now());
        Ok(())
    }

    fn receive(&mut self, _timeout: Duration) -> Option<Event> {
        self.charge_master();
        let due = self.due.pop()?;
        self.now = self.now.max(due.at);
        self.stats.seconds = self.now;
        self.last_return = Some(Instant::now());
        Some(Event::Message {
            worker: due.worker,
            bytes: due.bytes,
        })
    }

    fn shut_down(&mut self) {
        self.handlers.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two workers, jobs of known cost: reports come back in simulated order, and the clock and
    /// the idle share are what the schedule says.
    #[test]
    fn the_clock_follows_the_schedule() {
        let mut t = SimTransport::new(2, 0.0, |i| -> Handler {
            Box::new(move |b: &[u8]| {
                // worker 0 is slow, worker 1 fast
                std::thread::sleep(Duration::from_millis(if i == 0 { 40 } else { 5 }));
                Some(vec![b[0], i as u8])
            })
        });
        t.send(0, vec![1]).unwrap();
        t.send(1, vec![2]).unwrap();
        let Some(Event::Message { worker, bytes }) = t.receive(Duration::ZERO) else {
            panic!("an event")
        };
        assert_eq!(
            (worker, bytes),
            (1, vec![2, 1]),
            "the fast worker answers first"
        );
        let Some(Event::Message { worker, .. }) = t.receive(Duration::ZERO) else {
            panic!("an event")
        };
        assert_eq!(worker, 0);
        assert!(t.receive(Duration::ZERO).is_none());
        let s = &t.stats;
        assert!(s.seconds >= 0.040 && s.seconds < 0.2, "{s:?}");
        assert!(s.busy >= 0.045, "{s:?}");
        let idle = s.idle_share(2);
        assert!(idle > 0.2 && idle < 0.7, "{idle}");
    }
}
