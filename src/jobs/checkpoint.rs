//! The master's checkpoint: its two question trees and its counters, saved in the table
//! directory (`job-trees.zzj`) so that a killed run — any rank, at any moment — restarts from
//! here and the store, losing at most the jobs that were out.
//!
//! Written to a temporary file and renamed over the last one, so a kill while saving leaves the
//! previous checkpoint whole. The file carries the session's identity and an xxh3 checksum of
//! all of it; a damaged checkpoint, or one of another session (another game, rules, key mode,
//! hash seed or start), is refused in one line rather than read. Jobs out at the save are saved
//! as plain leaves: a restart sends them again.

use super::tree::{Node, Policy, Tree};
use crate::search::proof::Numbers;
use std::io::Write;
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::xxh3_64;

const MAGIC: &[u8; 8] = b"ZZJOBS02";
/// Bytes of one saved node.
const NODE_BYTES: usize = 33;
/// The checkpoint's file name inside a table directory.
pub const FILE_NAME: &str = "job-trees.zzj";

/// What a checkpoint restores besides the trees: where the questions' alternation stood and
/// the work done before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The question being worked on (0: does the side to move win; 1: does the opponent).
    pub active: u8,
    /// Jobs per turn of the current round of alternation.
    pub round_jobs: u64,
    /// Jobs of the current turn so far.
    pub jobs_in_turn: u64,
    /// Jobs answered in all earlier runs.
    pub jobs: u64,
    /// Worker nodes in all earlier runs.
    pub nodes: u64,
}

/// The checkpoint's path in the table directory `dir`.
pub fn path_in(dir: &Path) -> PathBuf {
    dir.join(FILE_NAME)
}

/// Saves `trees` and `progress` of `session` at `path`.
pub fn save(
    path: &Path,
    session: u64,
    trees: &[Tree; 2],
    progress: Progress,
) -> std::io::Result<()> {
    let mut b = Vec::with_capacity(64 + 40 * (trees[0].len() + trees[1].len()));
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&session.to_le_bytes());
    b.push(progress.active);
    for v in [
        progress.round_jobs,
        progress.jobs_in_turn,
        progress.jobs,
        progress.nodes,
    ] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    for t in trees {
        b.extend_from_slice(&(t.nodes.len() as u64).to_le_bytes());
        for n in &t.nodes {
            b.extend_from_slice(&n.parent.to_le_bytes());
            b.extend_from_slice(&n.mv.to_le_bytes());
            b.push(n.attacker_to_move as u8);
            b.extend_from_slice(&n.first_child.to_le_bytes());
            b.extend_from_slice(&n.n_children.to_le_bytes());
            b.extend_from_slice(&n.real.proof.to_le_bytes());
            b.extend_from_slice(&n.real.disproof.to_le_bytes());
            // the affinity: a restarted worker's tables are its snapshot's (`worker-N.zzs`)
            b.extend_from_slice(&n.worker.to_le_bytes());
        }
    }
    let sum = xxh3_64(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    let tmp = path.with_extension("zzj.tmp");
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&b)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// The checkpoint at `path` for `session`, if there is one; a damaged or foreign one is an
/// error of one line.
pub fn load(
    path: &Path,
    session: u64,
    policy: Policy,
    order_bias: u64,
) -> Result<Option<([Tree; 2], Progress)>, String> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let bad = |why: &str| format!("{}: not a usable job checkpoint ({why})", path.display());
    if bytes.len() < MAGIC.len() + 8 + 1 + 32 + 8 || &bytes[..8] != MAGIC {
        return Err(bad("not a zugzwang job checkpoint"));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if xxh3_64(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err(bad("checksum mismatch: damaged"));
    }
    let mut r = Cursor(&body[8..]);
    if r.u64() != session {
        return Err(bad(
            "made for another game, rules, key mode, hash seed or start position",
        ));
    }
    let active = r.u8();
    let progress = Progress {
        active,
        round_jobs: r.u64(),
        jobs_in_turn: r.u64(),
        jobs: r.u64(),
        nodes: r.u64(),
    };
    let mut trees = Vec::new();
    for _ in 0..2 {
        let n = r.u64() as usize;
        if n == 0 || n.saturating_mul(NODE_BYTES) > r.0.len() {
            return Err(bad("node count"));
        }
        let mut nodes = Vec::with_capacity(n);
        for _ in 0..n {
            let parent = r.u32();
            let mv = r.u64();
            let attacker_to_move = r.u8() != 0;
            let first_child = r.u32();
            let n_children = r.u32();
            let real = Numbers {
                proof: r.u32(),
                disproof: r.u32(),
            };
            let worker = r.u32();
            nodes.push(Node {
                parent,
                mv,
                attacker_to_move,
                first_child,
                n_children,
                real,
                virt: real,
                in_flight: false,
                worker,
            });
        }
        // the links must stay inside the tree (the checksum guards against damage, this
        // against a writer's bug)
        let len = nodes.len() as u64;
        let linked = nodes.iter().enumerate().all(|(i, nd)| {
            (i == 0 || (nd.parent as u64) < i as u64)
                && (nd.n_children == 0
                    || (nd.first_child as u64 + nd.n_children as u64 <= len
                        && nd.first_child as usize > i))
        });
        if !linked {
            return Err(bad("links"));
        }
        trees.push(Tree::from_nodes(nodes, policy, order_bias));
    }
    if !r.0.is_empty() || active > 1 {
        return Err(bad("layout"));
    }
    let [a, b]: [Tree; 2] = trees.try_into().expect("two trees");
    Ok(Some(([a, b], progress)))
}

/// Reads fields whose presence the caller checked (the length checks above and the checksum).
struct Cursor<'a>(&'a [u8]);

impl Cursor<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let n = N.min(self.0.len());
        let mut out = [0u8; N];
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        out
    }
    fn u8(&mut self) -> u8 {
        self.take::<1>()[0]
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::proof::ChildNumbers;

    fn grown() -> [Tree; 2] {
        let mut a = Tree::new(true, Policy::VirtualWin, 8);
        a.begin(0, 0);
        let kids: Vec<_> = (0..3)
            .map(|i| ChildNumbers {
                mv: 1 << i,
                numbers: Numbers {
                    proof: i + 1,
                    disproof: 2,
                },
            })
            .collect();
        a.expand(0, &kids);
        let leaf = a.select().unwrap().0;
        a.begin(leaf, 0);
        let b = Tree::new(false, Policy::VirtualWin, 8);
        [a, b]
    }

    /// A checkpoint comes back as saved, with the job that was out a plain leaf again.
    #[test]
    fn trees_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let p = path_in(dir.path());
        let trees = grown();
        let progress = Progress {
            active: 1,
            round_jobs: 64,
            jobs_in_turn: 3,
            jobs: 10,
            nodes: 12345,
        };
        save(&p, 7, &trees, progress).unwrap();
        let (back, pr) = load(&p, 7, Policy::VirtualWin, 8).unwrap().unwrap();
        assert_eq!(pr, progress);
        assert_eq!(back[0].len(), trees[0].len());
        assert_eq!(back[0].root(), trees[0].root());
        assert_eq!(back[1].len(), 1);
        let leaf = trees[0].select().map(|s| s.0);
        assert!(leaf.is_none() || !back[0].in_flight(leaf.unwrap()));
        assert!((0..back[0].len() as u32).all(|i| !back[0].in_flight(i)));
        assert_eq!(
            back[0].select().map(|s| s.0),
            Some(1),
            "the leaf that was out is chosen again"
        );
    }

    /// Another session's checkpoint, a damaged one and a missing one: refused, refused, none.
    #[test]
    fn foreign_and_damaged_checkpoints_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = path_in(dir.path());
        assert!(load(&p, 7, Policy::VirtualWin, 8).unwrap().is_none());
        save(&p, 7, &grown(), Progress::default()).unwrap();
        let e = load(&p, 8, Policy::VirtualWin, 8).unwrap_err();
        assert!(e.contains("another game"), "{e}");
        let mut b = std::fs::read(&p).unwrap();
        for i in [0, 20, b.len() / 2, b.len() - 1] {
            let mut d = b.clone();
            d[i] ^= 0x10;
            std::fs::write(&p, &d).unwrap();
            assert!(load(&p, 7, Policy::VirtualWin, 8).is_err(), "flip at {i}");
        }
        b.truncate(b.len() - 9);
        std::fs::write(&p, &b).unwrap();
        assert!(load(&p, 7, Policy::VirtualWin, 8).is_err());
    }
}
