//! Where data lives now: which data nodes are up, which replica of each partition is
//! primary, and how many committed writes each replica holds. The one owner of "where is
//! this row" once failures have moved primaries; `topology.rs` only numbers things.
//!
//! Partition `p`'s replicas are the nodes of its node group; at the start its primary is
//! position `(p / nodeGroups) % replicas` of the group, so that each node is primary for
//! as many partitions as it is backup for. When a primary fails, the next live node of
//! the group takes over; a node that rejoins does so as a backup, after copying its
//! partitions from a live replica (NDB's node recovery).

use crate::topology::{Host, Topology};

#[derive(Clone)]
pub struct Placement {
    /// Per data node: up, or failed and not yet restarted.
    alive: Vec<bool>,
    /// Per partition: the position in its node group of the current primary replica.
    primary_idx: Vec<u8>,
    /// Per (partition, position in node group): commits applied at that replica.
    applied_writes: Vec<u64>,
    /// Per partition: writes of transactions whose commit was confirmed.
    committed_writes: Vec<u64>,
}

impl Placement {
    pub fn new(t: &Topology) -> Placement {
        Placement {
            alive: vec![true; t.data_nodes as usize],
            primary_idx: (0..t.partitions).map(|p| t.first_primary_index(p) as u8).collect(),
            applied_writes: vec![0; (t.partitions * t.replicas) as usize],
            committed_writes: vec![0; t.partitions as usize],
        }
    }

    #[inline]
    pub fn alive(&self, node: Host) -> bool {
        self.alive[node as usize]
    }

    /// The live replicas of partition `p`, current primary first.
    pub fn live_chain(&self, t: &Topology, p: u32) -> ([u8; 4], u8) {
        let r = t.replicas;
        let first = self.primary_idx[p as usize] as u32;
        let mut chain = [0u8; 4];
        let mut n = 0;
        for k in 0..r {
            let node = t.group_node(p, (first + k) % r);
            if self.alive[node as usize] {
                chain[n] = node as u8;
                n += 1;
            }
        }
        assert!(n > 0, "every replica of partition {p} failed (fault validation should prevent this)");
        (chain, n as u8)
    }

    /// The data node holding partition `p`'s primary replica now.
    pub fn primary(&self, t: &Topology, p: u32) -> Host {
        self.live_chain(t, p).0[0] as Host
    }

    /// Index into `applied_writes` of partition `part`'s replica on `node`.
    fn index_of(t: &Topology, part: u32, node: Host) -> usize {
        (part * t.replicas + node % t.replicas) as usize
    }

    /// A commit was applied at `node`'s replica of `part`.
    pub fn applied(&mut self, t: &Topology, part: u32, node: Host) {
        self.applied_writes[Self::index_of(t, part, node)] += 1;
    }

    /// A transaction's commit of a write to `part` was confirmed.
    pub fn committed(&mut self, part: u32) {
        self.committed_writes[part as usize] += 1;
    }

    /// `node` stops: partitions whose primary it was get the next live replica of their
    /// group as primary, and its copies of the data are gone until it rejoins.
    pub fn fail(&mut self, t: &Topology, node: Host) {
        self.alive[node as usize] = false;
        let r = t.replicas;
        for p in 0..t.partitions {
            if t.group_node(p, self.primary_idx[p as usize] as u32) == node {
                let next = (1..r)
                    .map(|k| (self.primary_idx[p as usize] as u32 + k) % r)
                    .find(|&i| self.alive[t.group_node(p, i) as usize])
                    .expect("fault validation keeps a live replica in every node group");
                self.primary_idx[p as usize] = next as u8;
            }
        }
        for p in 0..t.partitions {
            if t.node_group_of_partition(p) == t.node_group_of_node(node) {
                self.applied_writes[Self::index_of(t, p, node)] = 0;
            }
        }
    }

    /// `node` restarts: it copies its partitions from the live replicas (node recovery)
    /// and rejoins as a backup; primaries stay where they moved.
    pub fn rejoin(&mut self, t: &Topology, node: Host) {
        self.alive[node as usize] = true;
        for p in 0..t.partitions {
            if t.node_group_of_partition(p) == t.node_group_of_node(node) {
                let best = self.best_live_copy(t, p, Some(node));
                self.applied_writes[Self::index_of(t, p, node)] = best;
            }
        }
    }

    /// The most commits any live replica of `p` (other than `except`) holds.
    fn best_live_copy(&self, t: &Topology, p: u32, except: Option<Host>) -> u64 {
        (0..t.replicas)
            .map(|i| t.group_node(p, i))
            .filter(|&n| Some(n) != except && self.alive[n as usize])
            .map(|n| self.applied_writes[Self::index_of(t, p, n)])
            .max()
            .unwrap_or(0)
    }

    /// Some live data node (failed ones are never all of them).
    pub fn any_live_node(&self) -> Host {
        self.alive.iter().position(|&a| a).expect("some data node is alive") as Host
    }

    pub fn nodes_down(&self) -> Vec<Host> {
        (0..self.alive.len() as u32).filter(|&n| !self.alive[n as usize]).collect()
    }

    /// Live nodes of node group `group`.
    pub fn live_in_group(&self, t: &Topology, group: u32) -> usize {
        (group * t.replicas..(group + 1) * t.replicas).filter(|&n| self.alive[n as usize]).count()
    }

    /// `committed-rows-survive`: a live replica holds every confirmed write of each partition.
    pub fn check_committed_rows(&self, t: &Topology) -> Result<(), String> {
        for p in 0..t.partitions {
            let best = self.best_live_copy(t, p, None);
            if best < self.committed_writes[p as usize] {
                return Err(format!(
                    "committed-rows-survive: partition {p} has {} committed writes but its live replicas hold {best}",
                    self.committed_writes[p as usize]
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replicas_of_a_partition_share_its_node_group_and_differ() {
        let t = Topology::of(8, 2, 4, 0, 1);
        let place = Placement::new(&t);
        for p in 0..t.partitions {
            let (chain, n) = place.live_chain(&t, p);
            assert_eq!(n, 2);
            assert_ne!(chain[0], chain[1]);
            for &node in &chain[..2] {
                assert_eq!(t.node_group_of_node(node as u32), t.node_group_of_partition(p));
            }
        }
    }

    #[test]
    fn every_node_is_primary_for_the_same_number_of_partitions() {
        let t = Topology::of(12, 3, 2, 0, 1);
        let place = Placement::new(&t);
        let mut primaries = vec![0; 12];
        for p in 0..t.partitions {
            primaries[place.primary(&t, p) as usize] += 1;
        }
        assert!(primaries.iter().all(|&n| n == 2), "{primaries:?}");
    }

    #[test]
    fn a_failed_primary_moves_and_a_rejoined_node_gets_the_data_back() {
        let t = Topology::of(4, 2, 1, 0, 1);
        let mut place = Placement::new(&t);
        let p = (0..t.partitions).find(|&p| place.primary(&t, p) == 0).unwrap();
        place.applied(&t, p, 0);
        place.applied(&t, p, 1);
        place.committed(p);
        place.fail(&t, 0);
        assert_eq!(place.primary(&t, p), 1);
        assert_eq!(place.live_chain(&t, p).1, 1);
        assert_eq!(place.nodes_down(), vec![0]);
        place.check_committed_rows(&t).unwrap();
        place.applied(&t, p, 1);
        place.committed(p);
        place.rejoin(&t, 0);
        assert_eq!(place.primary(&t, p), 1, "primaries stay where they moved");
        place.fail(&t, 1);
        place.check_committed_rows(&t).unwrap();
    }
}
