//! MPI ranks as workers (the `mpi` feature, rsmpi over the system's MPI library): rank 0 is the
//! master, every other rank a worker. `mpirun -np N zugzwang prove --mpi ...` or Slurm's `srun`
//! starts them; every rank reads the same command line, so every worker knows the session and
//! refuses jobs of another one.
//!
//! Messages are the protocol's bytes ([`super::protocol`]) with one tag. A rank that dies ends
//! the MPI job (MPI's default error handler); the run restarts from the master's checkpoint and
//! the store, losing the jobs that were out.

use super::protocol::Message;
use super::transport::{Event, Transport};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::*;
use std::time::{Duration, Instant};

const TAG: mpi::Tag = 7;

/// Rank 0's view of the other ranks.
pub struct MpiTransport {
    world: SimpleCommunicator,
    stopped: bool,
}

impl MpiTransport {
    /// The transport of the master (rank 0) of `world`.
    pub fn new(world: SimpleCommunicator) -> MpiTransport {
        MpiTransport {
            world,
            stopped: false,
        }
    }
}

impl Transport for MpiTransport {
    fn workers(&self) -> usize {
        (self.world.size() - 1).max(0) as usize
    }

    fn send(&mut self, worker: usize, bytes: Vec<u8>) -> Result<(), String> {
        self.world
            .process_at_rank(worker as i32 + 1)
            .send_with_tag(&bytes[..], TAG);
        Ok(())
    }

    fn receive(&mut self, timeout: Duration) -> Option<Event> {
        let until = Instant::now() + timeout;
        loop {
            if let Some((msg, status)) = self
                .world
                .any_process()
                .immediate_matched_probe_with_tag(TAG)
            {
                let len = status.count(u8::equivalent_datatype()).max(0) as usize;
                let mut bytes = vec![0u8; len];
                msg.matched_receive_into(&mut bytes[..]);
                return Some(Event::Message {
                    worker: status.source_rank() as usize - 1,
                    bytes,
                });
            }
            if Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    /// Tells every worker to end and waits until each has: a worker finishing a job sends its
    /// report first, and a large report is sent only when its receive is posted (MPI's
    /// rendezvous), so the master receives until every worker has echoed the stop — without
    /// that, a worker would wait forever on its last report while the master ends.
    fn shut_down(&mut self) {
        if std::mem::replace(&mut self.stopped, true) {
            return;
        }
        let stop = Message::Stop.encode();
        for rank in 1..self.world.size() {
            self.world
                .process_at_rank(rank)
                .send_with_tag(&stop[..], TAG);
        }
        let mut ended = 0;
        while ended + 1 < self.world.size() {
            let (bytes, _) = self.world.any_process().receive_vec_with_tag::<u8>(TAG);
            // reports of jobs still out are dropped: their leaves were abandoned
            if matches!(Message::decode(&bytes), Ok(Message::Stop)) {
                ended += 1;
            }
        }
    }
}

/// A worker rank's loop: answers rank 0's jobs with `handle` until told to stop, then echoes
/// the stop (see [`MpiTransport::shut_down`]).
pub fn serve(world: &SimpleCommunicator, mut handle: impl FnMut(&[u8]) -> Option<Vec<u8>>) {
    let master = world.process_at_rank(0);
    loop {
        let (bytes, _) = master.receive_vec_with_tag::<u8>(TAG);
        match handle(&bytes) {
            Some(report) => master.send_with_tag(&report[..], TAG),
            None => {
                master.send_with_tag(&Message::Stop.encode()[..], TAG);
                return;
            }
        }
    }
}
