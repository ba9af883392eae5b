//! The messages between the master and its workers, and their bytes.
//!
//! Two messages: a [`Job`] (master to worker) and a [`Report`] (worker to master). They cross
//! process and machine boundaries under MPI, so they have a byte form of their own: a magic
//! word, the kind, little-endian fields, and an xxh3 checksum of everything before it. A
//! damaged or foreign message is refused, never half-read; the transports treat a refused
//! message from a worker like a worker that died (its job is issued again).
//!
//! Every message carries the session's identity (a hash of the game, rules, key mode, hash seed
//! and start position): a worker refuses a job of another session, and the master a report of
//! another one — a result is never accepted for the wrong question.

use crate::game::Player;
use crate::search::proof::{ChildNumbers, Numbers};
use xxhash_rust::xxh3::xxh3_64;

const MAGIC: u32 = u32::from_le_bytes(*b"ZZJB");
const KIND_JOB: u8 = 1;
const KIND_REPORT: u8 = 2;
const KIND_STOP: u8 = 3;

/// One question about one position, for a budget of nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The session the job belongs to (see the module documentation).
    pub session: u64,
    /// Unique within a run of the master; a report names it.
    pub id: u64,
    /// The side whose win the question asks about.
    pub attacker: Player,
    /// The session's start position as its user wrote it (moves, or the game's board notation).
    pub position: String,
    /// The moves from there to the job's position (one-bit masks, as the game plays them).
    pub moves: Vec<u64>,
    /// Expanded nodes the worker may spend.
    pub budget: u64,
    /// The attacker's proof and disproof numbers at which the master would rather work
    /// elsewhere (df-pn's thresholds of the position).
    pub thresholds: Numbers,
}

/// What became of a job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The attacker wins.
    Proved,
    /// The attacker does not win.
    Disproved,
    /// Open after the budget: the position's numbers and its children's.
    Open {
        /// The position's numbers.
        numbers: Numbers,
        /// The children the search would expand, with their numbers.
        children: Vec<ChildNumbers>,
    },
    /// The worker could not run the job (a position it cannot read, another session): the
    /// master stops with this line, it is a bug or a mix-up, not a search result.
    Refused(String),
}

/// A proven fact worth keeping: bounds on a position's score for the side to move, by key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact {
    /// The position's 62-bit key.
    pub key: u64,
    /// Lower bound of the score.
    pub lower: i8,
    /// Upper bound of the score.
    pub upper: i8,
    /// Nodes it cost.
    pub work: u64,
}

/// A worker's answer to a job.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The session (see the module documentation).
    pub session: u64,
    /// The job answered.
    pub id: u64,
    /// What the search found.
    pub outcome: Outcome,
    /// Nodes spent (expansions and endgame nodes).
    pub nodes: u64,
    /// Wall-clock seconds spent.
    pub seconds: f64,
    /// Settled results worth keeping, for the master's position store.
    pub facts: Vec<Fact>,
}

/// A message of the protocol.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// Master to worker: work on this.
    Job(Job),
    /// Worker to master: this came of it.
    Report(Report),
    /// Master to worker: no more jobs, end.
    Stop,
}

/// Why bytes are not a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed(pub &'static str);

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "malformed message: {}", self.0)
    }
}

impl Message {
    /// The message's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(64));
        w.u32(MAGIC);
        match self {
            Message::Job(j) => {
                w.u8(KIND_JOB);
                w.u64(j.session);
                w.u64(j.id);
                w.u8(j.attacker.index() as u8);
                w.u64(j.budget);
                w.numbers(j.thresholds);
                w.bytes(j.position.as_bytes());
                w.u32(j.moves.len() as u32);
                for &mv in &j.moves {
                    w.u64(mv);
                }
            }
            Message::Report(r) => {
                w.u8(KIND_REPORT);
                w.u64(r.session);
                w.u64(r.id);
                w.u64(r.nodes);
                w.u64(r.seconds.to_bits());
                match &r.outcome {
                    Outcome::Proved => w.u8(0),
                    Outcome::Disproved => w.u8(1),
                    Outcome::Open { numbers, children } => {
                        w.u8(2);
                        w.numbers(*numbers);
                        w.u32(children.len() as u32);
                        for c in children {
                            w.u64(c.mv);
                            w.numbers(c.numbers);
                        }
                    }
                    Outcome::Refused(why) => {
                        w.u8(3);
                        w.bytes(why.as_bytes());
                    }
                }
                w.u32(r.facts.len() as u32);
                for f in &r.facts {
                    w.u64(f.key);
                    w.u8(f.lower as u8);
                    w.u8(f.upper as u8);
                    w.u64(f.work);
                }
            }
            Message::Stop => w.u8(KIND_STOP),
        }
        let sum = xxh3_64(&w.0);
        w.u64(sum);
        w.0
    }

    /// The message in `bytes`, checked in full.
    pub fn decode(bytes: &[u8]) -> Result<Message, Malformed> {
        if bytes.len() < 13 {
            return Err(Malformed("too short"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if xxh3_64(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(Malformed("checksum"));
        }
        let mut r = Reader(body);
        if r.u32()? != MAGIC {
            return Err(Malformed("not a zugzwang job message"));
        }
        let m = match r.u8()? {
            KIND_JOB => Message::Job(Job {
                session: r.u64()?,
                id: r.u64()?,
                attacker: match r.u8()? {
                    0 => Player::First,
                    1 => Player::Second,
                    _ => return Err(Malformed("attacker")),
                },
                budget: r.u64()?,
                thresholds: r.numbers()?,
                position: String::from_utf8(r.bytes()?.to_vec())
                    .map_err(|_| Malformed("position text"))?,
                moves: {
                    let n = r.count(8)?;
                    (0..n).map(|_| r.u64()).collect::<Result<_, _>>()?
                },
            }),
            KIND_REPORT => {
                let session = r.u64()?;
                let id = r.u64()?;
                let nodes = r.u64()?;
                let seconds = f64::from_bits(r.u64()?);
                let outcome = match r.u8()? {
                    0 => Outcome::Proved,
                    1 => Outcome::Disproved,
                    2 => {
                        let numbers = r.numbers()?;
                        let n = r.count(16)?;
                        let children = (0..n)
                            .map(|_| {
                                Ok(ChildNumbers {
                                    mv: r.u64()?,
                                    numbers: r.numbers()?,
                                })
                            })
                            .collect::<Result<_, Malformed>>()?;
                        Outcome::Open { numbers, children }
                    }
                    3 => Outcome::Refused(String::from_utf8_lossy(r.bytes()?).into_owned()),
                    _ => return Err(Malformed("outcome")),
                };
                let n = r.count(18)?;
                let facts = (0..n)
                    .map(|_| {
                        Ok(Fact {
                            key: r.u64()?,
                            lower: r.u8()? as i8,
                            upper: r.u8()? as i8,
                            work: r.u64()?,
                        })
                    })
                    .collect::<Result<_, Malformed>>()?;
                Message::Report(Report {
                    session,
                    id,
                    outcome,
                    nodes,
                    seconds,
                    facts,
                })
            }
            KIND_STOP => Message::Stop,
            _ => return Err(Malformed("kind")),
        };
        if !r.0.is_empty() {
            return Err(Malformed("trailing bytes"));
        }
        Ok(m)
    }
}

struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn numbers(&mut self, n: Numbers) {
        self.u32(n.proof);
        self.u32(n.disproof);
    }
    fn bytes(&mut self, b: &[u8]) {
        self.u32(b.len() as u32);
        self.0.extend_from_slice(b);
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Malformed> {
        if self.0.len() < n {
            return Err(Malformed("truncated"));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    fn u8(&mut self) -> Result<u8, Malformed> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, Malformed> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }
    fn u64(&mut self) -> Result<u64, Malformed> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8")))
    }
    fn numbers(&mut self) -> Result<Numbers, Malformed> {
        Ok(Numbers {
            proof: self.u32()?,
            disproof: self.u32()?,
        })
    }
    fn bytes(&mut self) -> Result<&'a [u8], Malformed> {
        let n = self.u32()? as usize;
        self.take(n)
    }
    /// A count of items of `size` bytes each, refused if the rest cannot hold them (so a
    /// damaged count cannot make the reader allocate without bound).
    fn count(&mut self, size: usize) -> Result<usize, Malformed> {
        let n = self.u32()? as usize;
        if n.saturating_mul(size) > self.0.len() {
            return Err(Malformed("count"));
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn numbers() -> impl Strategy<Value = Numbers> {
        (any::<u32>(), any::<u32>()).prop_map(|(proof, disproof)| Numbers { proof, disproof })
    }

    fn outcome() -> impl Strategy<Value = Outcome> {
        prop_oneof![
            Just(Outcome::Proved),
            Just(Outcome::Disproved),
            (
                numbers(),
                prop::collection::vec((any::<u64>(), numbers()), 0..20)
            )
                .prop_map(|(numbers, c)| Outcome::Open {
                    numbers,
                    children: c
                        .into_iter()
                        .map(|(mv, numbers)| ChildNumbers { mv, numbers })
                        .collect()
                }),
            ".{0,40}".prop_map(Outcome::Refused),
        ]
    }

    fn message() -> impl Strategy<Value = Message> {
        let job = (
            any::<u64>(),
            any::<u64>(),
            any::<bool>(),
            ".{0,60}",
            prop::collection::vec(any::<u64>(), 0..30),
            any::<u64>(),
            numbers(),
        )
            .prop_map(
                |(session, id, second, position, moves, budget, thresholds)| {
                    Message::Job(Job {
                        session,
                        id,
                        attacker: if second {
                            Player::Second
                        } else {
                            Player::First
                        },
                        position,
                        moves,
                        budget,
                        thresholds,
                    })
                },
            );
        let fact = (any::<u64>(), any::<i8>(), any::<i8>(), any::<u64>()).prop_map(
            |(key, lower, upper, work)| Fact {
                key,
                lower,
                upper,
                work,
            },
        );
        let report = (
            any::<u64>(),
            any::<u64>(),
            outcome(),
            any::<u64>(),
            0.0f64..1e6,
            prop::collection::vec(fact, 0..10),
        )
            .prop_map(|(session, id, outcome, nodes, seconds, facts)| {
                Message::Report(Report {
                    session,
                    id,
                    outcome,
                    nodes,
                    seconds,
                    facts,
                })
            });
        prop_oneof![job, report, Just(Message::Stop)]
    }

    proptest! {
        // no regression files: the top level of the repository is fixed
        #![proptest_config(ProptestConfig { failure_persistence: None, .. ProptestConfig::default() })]
        /// Every message comes back from its bytes as it was.
        #[test]
        fn messages_round_trip(m in message()) {
            prop_assert_eq!(Message::decode(&m.encode()), Ok(m));
        }

        /// Any damage — a flipped bit, a cut — is refused, never read as another message.
        #[test]
        fn damaged_messages_are_refused(m in message(), at in any::<prop::sample::Index>(), bit in 0u8..8, cut in any::<bool>()) {
            let mut b = m.encode();
            let i = at.index(b.len());
            if cut {
                b.truncate(i);
            } else {
                b[i] ^= 1 << bit;
            }
            prop_assert!(Message::decode(&b).is_err());
        }
    }
}
