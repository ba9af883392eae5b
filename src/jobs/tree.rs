//! The master's tree: the top of one question's proof tree, whose leaves are the jobs.
//!
//! A node is a position reached from the root by its moves; the tree knows moves, not boards
//! (the master replays a path when it needs the position), so its logic is tested here on its
//! own. Numbers are the proof and disproof numbers of "does the attacker win?".
//!
//! How numbers combine (the rules of the workers' df-pn, so that the master ranks leaves as they
//! would): at the attacker's move the proof number is the least child's, the disproof number the
//! children's combined; at the defender's the other way round. "Combined" is df-pn's weak sum —
//! the largest plus one per other open child — because the tree has transpositions (two paths to
//! one position) that a plain sum counts twice. A node is proved when one child is (attacker to
//! move) or every child is (defender to move), and disproved the other way round: exactly the
//! rules that make a value, whatever numbers the children carried before.
//!
//! Jobs in flight: several leaves are worked on at once, so choosing the next one must not pick
//! a leaf already out. A leaf out is counted as settled *virtually* — a win for the attacker
//! ([`Policy::VirtualWin`]) or a loss ([`Policy::VirtualLoss`]) — for choosing only; each node
//! keeps its real numbers beside the virtual ones, and only real numbers ever settle anything.

use crate::search::proof::{biased, unbiased, ChildNumbers, Numbers, INFINITE};

/// An inner node as df-pn sees it; see `Tree::view`.
struct View {
    phi: u32,
    delta: u32,
    best: u32,
    second: u32,
    maxp: u32,
}

impl View {
    /// The attacker's numbers of a node whose side to move is the attacker or not.
    fn numbers(&self, attacker_to_move: bool) -> Numbers {
        if attacker_to_move {
            Numbers {
                proof: self.phi,
                disproof: self.delta,
            }
        } else {
            Numbers {
                proof: self.delta,
                disproof: self.phi,
            }
        }
    }
}

/// The attacker's numbers `x` in the form of the side to move: (phi, delta).
fn mover_form(x: Numbers, attacker_to_move: bool) -> (u32, u32) {
    if attacker_to_move {
        (x.proof, x.disproof)
    } else {
        (x.disproof, x.proof)
    }
}

/// A node's index in the tree.
pub type NodeId = u32;

const NONE: NodeId = NodeId::MAX;

/// How a leaf whose job is out counts while the next leaves are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// As a proof: the next jobs go to the other defences of the same attack (every defence
    /// must be refuted for a proof, so that work is rarely wasted when the attack holds).
    VirtualWin,
    /// As a disproof: the next jobs go to other attacks (useful when the first one fails).
    VirtualLoss,
}

impl Policy {
    /// The policy's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Policy::VirtualWin => "virtual-win",
            Policy::VirtualLoss => "virtual-loss",
        }
    }

    /// The policy named `name`.
    pub fn from_name(name: &str) -> Option<Policy> {
        [Policy::VirtualWin, Policy::VirtualLoss]
            .into_iter()
            .find(|p| p.name() == name)
    }

    fn numbers(self) -> Numbers {
        match self {
            Policy::VirtualWin => Numbers::PROVED,
            Policy::VirtualLoss => Numbers::DISPROVED,
        }
    }
}

#[derive(Clone, Debug)]
pub(super) struct Node {
    pub parent: NodeId,
    /// The move from the parent (0 at the root).
    pub mv: u64,
    pub attacker_to_move: bool,
    /// Children are contiguous: `first_child .. first_child + n_children`.
    pub first_child: NodeId,
    pub n_children: u32,
    /// What is known.
    pub real: Numbers,
    /// What choosing uses: the real numbers with leaves in flight counted as the policy says.
    pub virt: Numbers,
    pub in_flight: bool,
    /// The worker the node's last job went to (`u32::MAX`: none in this run): its tables hold
    /// the node's subtree, so its children's jobs go there when it is free.
    pub worker: u32,
}

/// The tree of one question; see the module documentation.
#[derive(Clone, Debug)]
pub struct Tree {
    pub(super) nodes: Vec<Node>,
    policy: Policy,
    /// df-pn's order bias `k` (see [`crate::search::proof::DEFAULT_ORDER_BIAS`]): children
    /// rank as the workers order them.
    order_bias: u64,
}

impl Tree {
    /// A tree of one leaf: the root, whose side to move is the attacker or not.
    pub fn new(attacker_to_move: bool, policy: Policy, order_bias: u64) -> Tree {
        Tree {
            nodes: vec![Node {
                parent: NONE,
                mv: 0,
                attacker_to_move,
                first_child: NONE,
                n_children: 0,
                real: Numbers::UNKNOWN,
                virt: Numbers::UNKNOWN,
                in_flight: false,
                worker: u32::MAX,
            }],
            policy,
            order_bias: order_bias.max(1),
        }
    }

    /// The tree made of checkpointed nodes (no job in flight).
    pub(super) fn from_nodes(nodes: Vec<Node>, policy: Policy, order_bias: u64) -> Tree {
        Tree {
            nodes,
            policy,
            order_bias: order_bias.max(1),
        }
    }

    /// The root's real numbers.
    pub fn root(&self) -> Numbers {
        self.nodes[0].real
    }

    /// The answer, once the root is settled: whether the attacker wins.
    pub fn answer(&self) -> Option<bool> {
        let r = self.root();
        r.settled().then_some(r.proof == 0)
    }

    /// The answer at node `id`, once settled: whether the attacker wins there.
    pub fn answer_at(&self, id: NodeId) -> Option<bool> {
        let r = self.nodes[id as usize].real;
        r.settled().then_some(r.proof == 0)
    }

    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree is only its root (never the case once a job came back open).
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// The moves from the root to `id`.
    pub fn path(&self, mut id: NodeId) -> Vec<u64> {
        let mut moves = Vec::new();
        while self.nodes[id as usize].parent != NONE {
            moves.push(self.nodes[id as usize].mv);
            id = self.nodes[id as usize].parent;
        }
        moves.reverse();
        moves
    }

    /// Whether `id` is a leaf with a job out.
    pub fn in_flight(&self, id: NodeId) -> bool {
        self.nodes[id as usize].in_flight
    }

    /// Whether `id` or a node above it is settled (a job there has become useless).
    pub fn settled_above(&self, mut id: NodeId) -> bool {
        loop {
            let n = &self.nodes[id as usize];
            if n.real.settled() {
                return true;
            }
            if n.parent == NONE {
                return false;
            }
            id = n.parent;
        }
    }

    /// The most-proving leaf without a job out, by the virtual numbers, with the attacker's
    /// numbers at which df-pn would leave it for another (its thresholds, computed down the
    /// path as df-pn computes them for a child: [`crate::search::proof::Numbers`]); `None` when
    /// the root is settled (really or virtually: every way forward waits for a job in flight).
    pub fn select(&self) -> Option<(NodeId, Numbers)> {
        let mut id: NodeId = 0;
        // the current node's thresholds in the form of its side to move
        let (mut th_phi, mut th_delta) = (INFINITE, INFINITE);
        loop {
            let n = &self.nodes[id as usize];
            if n.virt.settled() {
                return None;
            }
            if n.n_children == 0 {
                let (proof, disproof) = if n.attacker_to_move {
                    (th_phi, th_delta)
                } else {
                    (th_delta, th_phi)
                };
                return (!n.in_flight).then_some((id, Numbers { proof, disproof }));
            }
            let v = self.view(id, |c| c.virt);
            let child_th_phi = (th_delta as u64 + v.maxp as u64)
                .saturating_sub(v.delta as u64)
                .clamp(1, INFINITE as u64) as u32;
            let child_th_delta = unbiased(
                th_phi.min(v.second.saturating_add(1).min(INFINITE)),
                v.best as u64,
                self.order_bias,
            );
            id = n.first_child + v.best;
            th_phi = child_th_phi;
            th_delta = child_th_delta;
        }
    }

    /// The worker whose tables hold most of what is known below the leaf `id`: the one its
    /// parent's job went to, if any.
    pub fn preferred_worker(&self, id: NodeId) -> Option<usize> {
        let n = &self.nodes[id as usize];
        let from = if n.worker != u32::MAX || n.parent == NONE {
            n.worker
        } else {
            self.nodes[n.parent as usize].worker
        };
        (from != u32::MAX).then_some(from as usize)
    }

    /// Marks the leaf `id` as out (its job sent to `worker`).
    pub fn begin(&mut self, id: NodeId, worker: usize) {
        let n = &mut self.nodes[id as usize];
        debug_assert!(n.n_children == 0 && !n.in_flight && !n.real.settled());
        n.in_flight = true;
        n.worker = worker as u32;
        n.virt = self.policy.numbers();
        self.update_above(id);
    }

    /// Takes back the job of `id` (its worker died, or the run stops): the leaf is as before.
    pub fn abandon(&mut self, id: NodeId) {
        let n = &mut self.nodes[id as usize];
        if !n.in_flight {
            return;
        }
        n.in_flight = false;
        n.virt = n.real;
        self.update_above(id);
    }

    /// Settles the leaf `id` as the job found (proved or not); returns the nodes this settled,
    /// from `id` up.
    pub fn settle(&mut self, id: NodeId, proved: bool) -> Vec<NodeId> {
        let n = &mut self.nodes[id as usize];
        n.in_flight = false;
        let was_settled = n.real.settled();
        n.real = if proved {
            Numbers::PROVED
        } else {
            Numbers::DISPROVED
        };
        n.virt = n.real;
        let mut settled = if was_settled { Vec::new() } else { vec![id] };
        settled.extend(self.update_above(id));
        settled
    }

    /// Grows the leaf `id` by its children as the job found them open; returns the nodes this
    /// settled (children that came settled can settle `id` and nodes above).
    pub fn expand(&mut self, id: NodeId, children: &[ChildNumbers]) -> Vec<NodeId> {
        assert!(!children.is_empty(), "an open position has children");
        let n = &self.nodes[id as usize];
        if n.n_children > 0 || n.real.settled() {
            // settled meanwhile (nothing to grow), or grown by an earlier answer
            let n = &mut self.nodes[id as usize];
            n.in_flight = false;
            n.virt = n.real;
            return self.update_above(id);
        }
        let first = self.nodes.len() as NodeId;
        let child_attacker_to_move = !n.attacker_to_move;
        for c in children {
            self.nodes.push(Node {
                parent: id,
                mv: c.mv,
                attacker_to_move: child_attacker_to_move,
                first_child: NONE,
                n_children: 0,
                real: c.numbers,
                virt: c.numbers,
                in_flight: false,
                worker: u32::MAX,
            });
        }
        let n = &mut self.nodes[id as usize];
        n.first_child = first;
        n.n_children = children.len() as u32;
        n.in_flight = false;
        let mut settled = Vec::new();
        for c in first..first + children.len() as NodeId {
            if self.nodes[c as usize].real.settled() {
                settled.push(c);
            }
        }
        let (real, virt) = self.combine(id);
        let n = &mut self.nodes[id as usize];
        n.real = real;
        n.virt = virt;
        if real.settled() {
            settled.push(id);
        }
        settled.extend(self.update_above(id));
        settled
    }

    /// The real and virtual numbers of an inner node from its children.
    fn combine(&self, id: NodeId) -> (Numbers, Numbers) {
        let a = self.nodes[id as usize].attacker_to_move;
        let real = self.view(id, |c| c.real).numbers(a);
        let virt = if real.settled() {
            real
        } else {
            self.view(id, |c| c.virt).numbers(a)
        };
        (real, virt)
    }

    /// An inner node as df-pn sees it (`dfpn::expand`), in the form of its side to move: phi
    /// is the least of the children's deltas, each biased by its rank in the workers' order,
    /// delta the weak sum of their phis; with the best child, the second-least biased delta
    /// and the largest phi (what df-pn's thresholds need).
    fn view(&self, id: NodeId, f: fn(&Node) -> Numbers) -> View {
        let n = &self.nodes[id as usize];
        let children = &self.nodes[n.first_child as usize..(n.first_child + n.n_children) as usize];
        let mut v = View {
            phi: INFINITE,
            delta: 0,
            best: 0,
            second: INFINITE,
            maxp: 0,
        };
        let mut open = 0u64;
        let mut infinite = false;
        for (i, c) in children.iter().enumerate() {
            let (p, d) = mover_form(f(c), c.attacker_to_move);
            let d = biased(d, i as u64, self.order_bias);
            if d < v.phi {
                v.second = v.phi;
                v.phi = d;
                v.best = i as u32;
            } else if d < v.second {
                v.second = d;
            }
            if p >= INFINITE {
                infinite = true;
            }
            if p > 0 {
                open += 1;
                v.maxp = v.maxp.max(p);
            }
        }
        v.delta = if infinite {
            INFINITE
        } else {
            (v.maxp as u64 + open.max(1) - 1).min(INFINITE as u64 - 1) as u32
        };
        v
    }

    /// Recomputes the numbers above `id` after it changed; returns the nodes this settled.
    fn update_above(&mut self, id: NodeId) -> Vec<NodeId> {
        let mut settled = Vec::new();
        let mut at = self.nodes[id as usize].parent;
        while at != NONE {
            let (real, virt) = self.combine(at);
            let n = &mut self.nodes[at as usize];
            if n.real == real && n.virt == virt {
                break;
            }
            if real.settled() && !n.real.settled() {
                settled.push(at);
            }
            n.real = real;
            n.virt = virt;
            at = n.parent;
        }
        settled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A game tree for tests: a node is a leaf with the attacker's result, or has children.
    #[derive(Clone, Debug)]
    enum Toy {
        Leaf(bool),
        Inner(Vec<Toy>),
    }

    fn toy() -> impl Strategy<Value = Toy> {
        let leaf = any::<bool>().prop_map(Toy::Leaf);
        leaf.prop_recursive(4, 64, 4, |inner| {
            prop::collection::vec(inner, 1..4).prop_map(Toy::Inner)
        })
    }

    /// Plain minimax: the attacker wins at his move if a child wins, at the defender's if all do.
    fn minimax(t: &Toy, attacker_to_move: bool) -> bool {
        match t {
            Toy::Leaf(w) => *w,
            Toy::Inner(c) => {
                let mut wins = c.iter().map(|c| minimax(c, !attacker_to_move));
                if attacker_to_move {
                    wins.any(|w| w)
                } else {
                    wins.all(|w| w)
                }
            }
        }
    }

    fn at<'a>(t: &'a Toy, path: &[u64]) -> &'a Toy {
        path.iter().fold(t, |t, &mv| match t {
            Toy::Inner(c) => &c[mv.trailing_zeros() as usize],
            Toy::Leaf(_) => unreachable!("a path through a leaf"),
        })
    }

    /// Runs the tree over `toy` with `parallel` jobs out at a time, answering them in the
    /// order `order` picks (a worker per job, answering late or early); each job answers
    /// a leaf's value, or opens an inner node with unknown children.
    fn run(toy: &Toy, policy: Policy, parallel: usize, order: &[usize]) -> (bool, usize) {
        let mut tree = Tree::new(true, policy, 8);
        let mut out: Vec<NodeId> = Vec::new();
        let mut jobs = 0;
        let mut k = 0;
        while tree.answer().is_none() {
            while out.len() < parallel {
                let Some(id) = tree.select().map(|s| s.0) else {
                    break;
                };
                tree.begin(id, 0);
                out.push(id);
                jobs += 1;
            }
            assert!(!out.is_empty(), "nothing out and nothing to choose");
            let i = order.get(k).copied().unwrap_or(0) % out.len();
            k += 1;
            let id = out.swap_remove(i);
            match at(toy, &tree.path(id)) {
                Toy::Leaf(w) => {
                    tree.settle(id, *w);
                }
                Toy::Inner(c) => {
                    let children: Vec<_> = (0..c.len())
                        .map(|i| ChildNumbers {
                            mv: 1 << i,
                            numbers: Numbers::UNKNOWN,
                        })
                        .collect();
                    tree.expand(id, &children);
                }
            }
            assert!(jobs < 10_000);
        }
        (tree.answer().unwrap(), jobs)
    }

    proptest! {
        // no regression files: the top level of the repository is fixed
        #![proptest_config(ProptestConfig { failure_persistence: None, .. ProptestConfig::default() })]
        /// Whatever the policy, the number of jobs out and the order they come back in, the
        /// tree's answer is minimax's.
        #[test]
        fn answers_are_minimax(t in toy(), parallel in 1usize..5, order in prop::collection::vec(0usize..8, 0..50), win in any::<bool>()) {
            let policy = if win { Policy::VirtualWin } else { Policy::VirtualLoss };
            let (answer, _) = run(&t, policy, parallel, &order);
            prop_assert_eq!(answer, minimax(&t, true));
        }
    }

    /// One job out at a time is plain proof-number search: no policy changes a thing then.
    #[test]
    fn one_job_at_a_time_ignores_the_policy() {
        let t = Toy::Inner(vec![
            Toy::Inner(vec![Toy::Leaf(false), Toy::Leaf(true)]),
            Toy::Inner(vec![Toy::Leaf(true), Toy::Leaf(true), Toy::Leaf(true)]),
        ]);
        let a = run(&t, Policy::VirtualWin, 1, &[]);
        let b = run(&t, Policy::VirtualLoss, 1, &[]);
        assert_eq!(a, b);
        assert!(a.0);
    }

    /// A leaf out is never chosen again, and a job taken back makes it choosable again.
    #[test]
    fn leaves_out_are_not_chosen_twice() {
        let mut tree = Tree::new(true, Policy::VirtualWin, 8);
        let root = tree.select().unwrap().0;
        tree.begin(root, 0);
        assert_eq!(tree.select(), None, "the only leaf is out");
        tree.abandon(root);
        assert_eq!(tree.select().map(|s| s.0), Some(root));
        tree.begin(root, 0);
        let children: Vec<_> = (0..3)
            .map(|i| ChildNumbers {
                mv: 1 << i,
                numbers: Numbers::UNKNOWN,
            })
            .collect();
        assert!(tree.expand(root, &children).is_empty());
        let mut chosen = Vec::new();
        while let Some((id, _)) = tree.select() {
            assert!(!chosen.contains(&id));
            tree.begin(id, 0);
            chosen.push(id);
        }
        // the attacker to move: one child virtually won settles the root virtually
        assert_eq!(chosen.len(), 1);
        let mut loss = Tree::new(true, Policy::VirtualLoss, 8);
        let r = loss.select().unwrap().0;
        loss.begin(r, 0);
        loss.expand(r, &children);
        let mut n = 0;
        while let Some((id, _)) = loss.select() {
            loss.begin(id, 0);
            n += 1;
        }
        assert_eq!(
            n, 3,
            "every attack is tried while the others count as failed"
        );
        assert_eq!(loss.answer(), None, "virtual numbers never settle anything");
    }

    /// Children that come settled settle their parent by the rules (attacker to move: one
    /// proved child proves; all disproved disproves) and the settled nodes are reported.
    #[test]
    fn settled_children_settle_the_parent() {
        let mut tree = Tree::new(true, Policy::VirtualWin, 8);
        tree.begin(0, 0);
        let kids = [Numbers::DISPROVED, Numbers::PROVED, Numbers::UNKNOWN];
        let children: Vec<_> = kids
            .iter()
            .enumerate()
            .map(|(i, &numbers)| ChildNumbers {
                mv: 1 << i,
                numbers,
            })
            .collect();
        let settled = tree.expand(0, &children);
        assert_eq!(tree.answer(), Some(true));
        assert!(settled.contains(&0) && settled.contains(&2));
        let mut def = Tree::new(false, Policy::VirtualWin, 8);
        def.begin(0, 0);
        let all_proved: Vec<_> = (0..2)
            .map(|i| ChildNumbers {
                mv: 1 << i,
                numbers: Numbers::PROVED,
            })
            .collect();
        def.expand(0, &all_proved);
        assert_eq!(def.answer(), Some(true), "every defence refuted");
        assert_eq!(def.path(2), vec![2]);
    }
}
