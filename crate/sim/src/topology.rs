//! Where things live: node groups, partitions and their replicas, and the CPU threads
//! ("stations") of data nodes and API nodes.
//!
//! NDB numbers data nodes into node groups in order: with 2 replicas, nodes 0 and 1
//! form node group 0, nodes 2 and 3 node group 1, and so on. Every table has one
//! partition per LDM thread of every data node. Partition `p` lives in node group
//! `p % nodeGroups`; its primary replica rotates over the group's nodes so that each
//! node is primary for as many partitions as it is backup for; on each node it is owned
//! by LDM thread `p / dataNodes`.

use crate::config::Config;
use crate::prng::mix64;

/// A host: data nodes are `0..dataNodes`, API nodes follow.
pub type Host = u32;
/// A CPU thread (or, for an API node, a pool of cores) with a FIFO queue.
pub type StationId = u32;

#[derive(Clone, Debug)]
pub struct Topology {
    pub data_nodes: u32,
    pub replicas: u32,
    pub node_groups: u32,
    pub partitions: u32,
    pub ldm_threads: u32,
    pub tc_threads: u32,
    pub api_nodes: u32,
}

impl Topology {
    pub fn new(c: &Config) -> Topology {
        Topology {
            data_nodes: c.data_nodes,
            replicas: c.replicas,
            node_groups: c.node_groups(),
            partitions: c.partitions(),
            ldm_threads: c.ldm_threads,
            tc_threads: c.tc_threads,
            api_nodes: c.api_nodes,
        }
    }

    pub fn threads_per_node(&self) -> u32 {
        self.ldm_threads + self.tc_threads
    }

    /// The partition of a row whose distribution key is `key`.
    pub fn partition_of(&self, key: u64) -> u32 {
        (mix64(key) % self.partitions as u64) as u32
    }

    pub fn node_group_of_partition(&self, p: u32) -> u32 {
        p % self.node_groups
    }

    pub fn node_group_of_node(&self, node: Host) -> u32 {
        node / self.replicas
    }

    /// The data node holding replica `r` (0 = primary) of partition `p`.
    pub fn replica_node(&self, p: u32, r: u32) -> Host {
        let ng = self.node_group_of_partition(p);
        let primary = (p / self.node_groups) % self.replicas;
        ng * self.replicas + (primary + r) % self.replicas
    }

    /// The node at position `i` (0..replicas) of partition `p`'s node group.
    pub fn group_node(&self, p: u32, i: u32) -> Host {
        self.node_group_of_partition(p) * self.replicas + i
    }

    /// The LQH station (LDM thread) of partition `p` on `node`.
    pub fn station_on(&self, node: Host, p: u32) -> StationId {
        node * self.threads_per_node() + (p / self.data_nodes) % self.ldm_threads
    }

    /// The LQH (LDM thread) station of replica `r` of partition `p`.
    pub fn lqh_station(&self, p: u32, r: u32) -> StationId {
        let node = self.replica_node(p, r);
        node * self.threads_per_node() + (p / self.data_nodes) % self.ldm_threads
    }

    /// The thread of `node` that runs TC work for transaction number `txn_seq`:
    /// a TC thread when there are any, else one of the LDM threads.
    pub fn tc_station(&self, node: Host, txn_seq: u64) -> StationId {
        let t = if self.tc_threads > 0 {
            self.ldm_threads + (txn_seq % self.tc_threads as u64) as u32
        } else {
            (txn_seq % self.ldm_threads as u64) as u32
        };
        node * self.threads_per_node() + t
    }

    pub fn data_stations(&self) -> u32 {
        self.data_nodes * self.threads_per_node()
    }

    /// The station of API node `api` (0-based among API nodes).
    pub fn api_station(&self, api: u32) -> StationId {
        self.data_stations() + api
    }

    pub fn stations(&self) -> u32 {
        self.data_stations() + self.api_nodes
    }

    /// The host a station belongs to.
    pub fn host_of(&self, s: StationId) -> Host {
        let d = self.data_stations();
        if s < d { s / self.threads_per_node() } else { self.data_nodes + (s - d) }
    }

    pub fn is_data_station(&self, s: StationId) -> bool {
        s < self.data_stations()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topo(nodes: u32, replicas: u32, ldm: u32) -> Topology {
        Topology {
            data_nodes: nodes,
            replicas,
            node_groups: nodes / replicas,
            partitions: nodes * ldm,
            ldm_threads: ldm,
            tc_threads: 0,
            api_nodes: 1,
        }
    }

    #[test]
    fn replicas_of_a_partition_share_its_node_group_and_differ() {
        let t = topo(8, 2, 4);
        for p in 0..t.partitions {
            let a = t.replica_node(p, 0);
            let b = t.replica_node(p, 1);
            assert_ne!(a, b);
            assert_eq!(t.node_group_of_node(a), t.node_group_of_partition(p));
            assert_eq!(t.node_group_of_node(b), t.node_group_of_partition(p));
            assert_eq!(t.lqh_station(p, 0) % 4, t.lqh_station(p, 1) % 4, "same LDM thread index");
        }
    }

    #[test]
    fn every_node_is_primary_for_the_same_number_of_partitions() {
        let t = topo(12, 3, 2);
        let mut primaries = vec![0; 12];
        for p in 0..t.partitions {
            primaries[t.replica_node(p, 0) as usize] += 1;
        }
        assert!(primaries.iter().all(|&n| n == 2), "{primaries:?}");
    }

    #[test]
    fn stations_map_back_to_hosts() {
        let mut t = topo(4, 2, 2);
        t.tc_threads = 1;
        t.api_nodes = 3;
        assert_eq!(t.stations(), 4 * 3 + 3);
        assert_eq!(t.host_of(t.tc_station(3, 0)), 3);
        assert_eq!(t.host_of(t.api_station(2)), 6);
        assert_eq!(t.tc_station(1, 5) % 3, 2, "TC work goes to the TC thread");
    }
}
