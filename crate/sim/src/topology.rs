//! How the cluster is numbered: hosts, node groups, partitions, and the CPU threads
//! ("stations") of data nodes and API nodes. Static for a run; where replicas live *now*
//! (after failures) is `placement.rs`.
//!
//! NDB numbers data nodes into node groups in order: with 2 replicas, nodes 0 and 1
//! form node group 0, nodes 2 and 3 node group 1, and so on. Every table has one
//! partition per LDM thread of every data node. Partition `p` lives in node group
//! `p % nodeGroups` and, on each node, is owned by LDM thread `(p / dataNodes) % ldmThreads`.
//!
//! Stations are numbered data-node threads first (`node * threadsPerNode + thread`), then
//! one per API node, then the central allocator service's. The hot path asks "which host is this station on" several times per
//! event, so that answer is a table, not a division.

use crate::prng::mix64;

/// A host: data nodes are `0..dataNodes`, API nodes follow, then the allocator service.
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
    /// CPU cores behind each data-node station: 1 for NDB's threads; a one-server engine's
    /// one station is a pool of `server.cores` (its backends share them).
    pub data_cores: u32,
    /// Execution threads per data node, and data-node threads in all (the first stations):
    /// asked on every message, so kept, not multiplied out.
    threads_per_node: u32,
    data_stations: u32,
    /// The host of each station.
    station_host: Vec<Host>,
    /// The LDM thread (index within its node) owning each partition.
    partition_thread: Vec<u32>,
}

impl Topology {
    pub fn of(data_nodes: u32, replicas: u32, ldm_threads: u32, tc_threads: u32, api_nodes: u32) -> Topology {
        let tpn = ldm_threads + tc_threads;
        let partitions = data_nodes * ldm_threads;
        let mut station_host: Vec<Host> = (0..data_nodes * tpn).map(|s| s / tpn).collect();
        station_host.extend((0..api_nodes).map(|a| data_nodes + a));
        // The central allocator service's host (idle unless `allocator` is `centralService`).
        station_host.push(data_nodes + api_nodes);
        Topology {
            data_nodes,
            replicas,
            node_groups: data_nodes / replicas,
            partitions,
            ldm_threads,
            tc_threads,
            api_nodes,
            data_cores: 1,
            threads_per_node: tpn,
            data_stations: data_nodes * tpn,
            station_host,
            partition_thread: (0..partitions).map(|p| (p / data_nodes) % ldm_threads).collect(),
        }
    }

    #[inline]
    pub fn threads_per_node(&self) -> u32 {
        self.threads_per_node
    }

    /// The partition of a row whose distribution key is `key` (NDB hashes with MD5; any
    /// good deterministic hash will do).
    pub fn partition_of(&self, key: u64) -> u32 {
        (mix64(key) % self.partitions as u64) as u32
    }

    pub fn node_group_of_partition(&self, p: u32) -> u32 {
        p % self.node_groups
    }

    pub fn node_group_of_node(&self, node: Host) -> u32 {
        node / self.replicas
    }

    /// The node at position `i` (0..replicas) of partition `p`'s node group.
    pub fn group_node(&self, p: u32, i: u32) -> Host {
        self.node_group_of_partition(p) * self.replicas + i
    }

    /// The position in its node group of partition `p`'s primary replica while every node
    /// is up: primaries rotate over a group's nodes, so each node is primary for some.
    pub fn first_primary_index(&self, p: u32) -> u32 {
        (p / self.node_groups) % self.replicas
    }

    /// The node holding partition `p`'s primary replica while every node is up.
    pub fn first_primary(&self, p: u32) -> Host {
        self.group_node(p, self.first_primary_index(p))
    }

    /// The LQH station (LDM thread) of partition `p` on `node`.
    #[inline]
    pub fn station_on(&self, node: Host, p: u32) -> StationId {
        node * self.threads_per_node() + self.partition_thread[p as usize]
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

    #[inline]
    pub fn data_stations(&self) -> u32 {
        self.data_stations
    }

    /// The station of API node `api` (0-based among API nodes).
    pub fn api_station(&self, api: u32) -> StationId {
        self.data_stations() + api
    }

    /// The host of API node `api`.
    pub fn api_host(&self, api: u32) -> Host {
        self.data_nodes + api
    }

    /// The central allocator service's station, alone on the last host.
    pub fn service_station(&self) -> StationId {
        self.data_stations() + self.api_nodes
    }

    pub fn stations(&self) -> u32 {
        self.station_host.len() as u32
    }

    /// The host a station belongs to.
    #[inline]
    pub fn host_of(&self, s: StationId) -> Host {
        self.station_host[s as usize]
    }

    #[inline]
    pub fn is_data_station(&self, s: StationId) -> bool {
        s < self.data_stations
    }

    /// The data node of a data-node thread, or None for an API node's station.
    #[inline]
    pub fn data_node_of(&self, s: StationId) -> Option<Host> {
        self.is_data_station(s).then(|| self.host_of(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stations_map_back_to_hosts() {
        let t = Topology::of(4, 2, 2, 1, 3);
        assert_eq!(t.stations(), 4 * 3 + 3 + 1);
        assert_eq!(t.host_of(t.service_station()), 4 + 3, "the allocator service has its own host");
        assert_eq!(t.host_of(t.tc_station(3, 0)), 3);
        assert_eq!(t.host_of(t.api_station(2)), 6);
        assert_eq!(t.api_host(2), 6);
        assert_eq!(t.tc_station(1, 5) % 3, 2, "TC work goes to the TC thread");
        for s in 0..t.stations() {
            let by_division = if s < t.data_stations() { s / t.threads_per_node() } else { 4 + s - t.data_stations() };
            assert_eq!(t.host_of(s), by_division);
        }
    }

    #[test]
    fn a_partition_uses_the_same_ldm_thread_on_every_node() {
        let t = Topology::of(8, 2, 4, 0, 1);
        for p in 0..t.partitions {
            let threads: Vec<u32> = (0..8).map(|n| t.station_on(n, p) - n * 4).collect();
            assert!(threads.iter().all(|&x| x == threads[0] && x < 4), "{threads:?}");
        }
    }
}
