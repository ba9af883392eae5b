//! How jobs reach workers and reports come back: bytes to and from numbered workers. The master
//! knows only this trait; local threads ([`ThreadTransport`]) and MPI ranks
//! (`crate::jobs::mpi`, behind the `mpi` feature) implement it.

use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

/// What the master hears from its workers.
#[derive(Debug)]
pub enum Event {
    /// Worker `worker` sent these bytes (a report).
    Message {
        /// The worker.
        worker: usize,
        /// The message's bytes.
        bytes: Vec<u8>,
    },
    /// Worker `worker` is gone (it died, or answered with something that is not a report):
    /// its job must go to another worker.
    Lost {
        /// The worker.
        worker: usize,
    },
}

/// Moves bytes between the master and workers `0..workers()`.
pub trait Transport {
    /// How many workers there are (dead ones included).
    fn workers(&self) -> usize;
    /// Sends `bytes` to `worker`; an error means the worker is gone.
    fn send(&mut self, worker: usize, bytes: Vec<u8>) -> Result<(), String>;
    /// The next event, waiting at most `timeout`.
    fn receive(&mut self, timeout: Duration) -> Option<Event>;
    /// Tells every worker to end, and waits for the local ones.
    fn shut_down(&mut self);
}

/// A worker's handler: a job's bytes in, a report's bytes out (`None`: stopped, no answer).
pub type Handler = Box<dyn FnMut(&[u8]) -> Option<Vec<u8>> + Send>;

/// Workers as threads of this process: the embedded default on one machine, and the transport
/// the master's logic is tested with. A worker whose handler panics is reported
/// [`Event::Lost`] and ends.
pub struct ThreadTransport {
    to_workers: Vec<Option<Sender<Vec<u8>>>>,
    from_workers: Receiver<Event>,
    threads: Vec<JoinHandle<()>>,
}

impl ThreadTransport {
    /// Starts `workers` threads, worker `i` running the handler `make(i)` makes (in its own
    /// thread, so that its tables are allocated there).
    pub fn spawn(
        workers: usize,
        make: impl Fn(usize) -> Handler + Send + Sync + Clone + 'static,
    ) -> ThreadTransport {
        let (events, from_workers) = mpsc::channel();
        let mut to_workers = Vec::new();
        let mut threads = Vec::new();
        for i in 0..workers {
            let (to, jobs) = mpsc::channel::<Vec<u8>>();
            let events: Sender<Event> = events.clone();
            let make = make.clone();
            let t = std::thread::Builder::new()
                .name(format!("job-worker-{i}"))
                .spawn(move || {
                    let run = std::panic::AssertUnwindSafe(|| {
                        let mut handle = make(i);
                        while let Ok(bytes) = jobs.recv() {
                            match handle(&bytes) {
                                Some(report) => {
                                    let _ = events.send(Event::Message {
                                        worker: i,
                                        bytes: report,
                                    });
                                }
                                // stopped, or the end
                                None => break,
                            }
                        }
                    });
                    if std::panic::catch_unwind(run).is_err() {
                        let _ = events.send(Event::Lost { worker: i });
                    }
                })
                .expect("cannot start a worker thread");
            to_workers.push(Some(to));
            threads.push(t);
        }
        ThreadTransport {
            to_workers,
            from_workers,
            threads,
        }
    }
}

impl Transport for ThreadTransport {
    fn workers(&self) -> usize {
        self.to_workers.len()
    }

    fn send(&mut self, worker: usize, bytes: Vec<u8>) -> Result<(), String> {
        let to = self.to_workers[worker]
            .as_ref()
            .ok_or_else(|| format!("worker {worker} has ended"))?;
        to.send(bytes)
            .map_err(|_| format!("worker {worker} has ended"))
    }

    fn receive(&mut self, timeout: Duration) -> Option<Event> {
        // a timeout and a disconnection both mean: nothing came (the master counts its workers)
        self.from_workers.recv_timeout(timeout).ok()
    }

    fn shut_down(&mut self) {
        for to in &mut self.to_workers {
            // closing the channel ends the worker's loop after its current job
            to.take();
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

impl Drop for ThreadTransport {
    fn drop(&mut self) {
        self.shut_down();
    }
}
