//! The links between hosts: how long a message takes from one host to another, and the
//! order messages arrive in (docs/MODEL.md §2, "Network").
//!
//! A one-way delay is a floor plus a tail: `latency * (1 - cv)` always, and an
//! exponential part with mean `latency * cv`, so its mean is `network.latencyUs` and its
//! coefficient of variation `network.latencyCv` (0..1). The floor is the wire and the
//! stacks' fixed work; the tail is what varies (interrupt coalescing, queues in the NIC,
//! the switch and the kernel): a shifted exponential, the simplest delay with a floor and a
//! tail. cv 0 draws nothing: every message takes exactly the latency.
//!
//! The tail belongs to the link, not to each message: what delays one message (a queue, a
//! coalesced interrupt) delays the ones right behind it. A link draws a tail when a message
//! is sent on it and keeps it for one mean latency; every message it carries meanwhile
//! pays that tail, so a busy link's messages do not each wait behind a slow one drawn apart
//! from them. A lone message's mean delay is the latency; on a busy link, a message sent
//! just after the link drew a shorter tail waits for the one before it, so the mean there
//! is somewhat above it (about 53 us for 47 at cv 0.75 and 50k messages a second; the
//! refit of `latencyUs` took it in). (Drawn per message, tails on a link that keeps its
//! order queue up far more: the `modern` preset's inserts/s fell 23-30%.)
//!
//! A link is one TCP connection (an NDB transporter) per pair of hosts, so messages from
//! one host to another arrive in the order they were sent: one that would overtake an
//! earlier one (when a link's new tail is shorter, or a fault's added delay ends) arrives
//! with it instead, just after it (same-time events pop in push order).
//!
//! Draws come from a stream of their own, above the service times' and open arrivals'.

use crate::exponential::exponential;
use crate::prng::Prng;
use crate::time::{self, Ns};
use crate::topology::Host;

/// The stream of network delays.
const STREAM: u64 = 1 << 42;

#[derive(Clone, Debug)]
pub(super) struct Links {
    rng: Prng,
    hosts: usize,
    /// Per ordered pair of hosts (`from * hosts + to`).
    links: Vec<Link>,
}

/// One link's state: the tail its messages pay until `until`, and when its last message
/// arrives.
#[derive(Clone, Copy, Debug, Default)]
struct Link {
    until_ns: Ns,
    tail_ns: Ns,
    arrives_ns: Ns,
}

impl Links {
    pub fn new(seed: u64, hosts: u32) -> Links {
        let hosts = hosts as usize;
        Links { rng: Prng::new(seed, STREAM), hosts, links: vec![Link::default(); hosts * hosts] }
    }

    /// When a message sent from `from` to `to` at `now` arrives: the floor, the link's
    /// tail now and `extra` later, never before the link's previous message.
    #[inline]
    pub fn arrival(&mut self, from: Host, to: Host, now: Ns, latency_us: u64, cv: f64, extra: Ns) -> Ns {
        let mean = time::from_us(latency_us);
        let link = &mut self.links[from as usize * self.hosts + to as usize];
        let floor = if cv == 0.0 || mean == 0 {
            mean
        } else {
            if now >= link.until_ns {
                link.tail_ns = (mean as f64 * cv * exponential(&mut self.rng) + 0.5) as Ns;
                link.until_ns = now + mean;
            }
            (mean as f64 * (1.0 - cv) + 0.5) as Ns + link.tail_ns
        };
        link.arrives_ns = link.arrives_ns.max(now + floor + extra);
        link.arrives_ns
    }

    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Links>() + self.links.capacity() * std::mem::size_of::<Link>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_have_the_latency_as_mean_and_cv_as_spread() {
        let mut links = Links::new(1, 2);
        assert_eq!(links.arrival(0, 1, 0, 51, 0.0, 0), 51_000, "cv 0 is exactly the latency");
        // Messages a few latencies apart each meet a tail of their own.
        let n = 200_000;
        let d: Vec<f64> = (0..n).map(|i| (links.arrival(0, 1, i * 200_000, 50, 0.4, 0) - i * 200_000) as f64).collect();
        let mean = d.iter().sum::<f64>() / n as f64;
        let sd = (d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64).sqrt();
        assert!((mean / 50_000.0 - 1.0).abs() < 0.01, "mean {mean}");
        assert!((sd / mean - 0.4).abs() < 0.01, "cv {}", sd / mean);
        let floor = d.iter().cloned().fold(f64::MAX, f64::min);
        assert!((30_000.0..30_100.0).contains(&floor), "the floor is latency * (1 - cv): {floor}");
    }

    #[test]
    fn a_link_keeps_its_order_and_a_latency_of_messages_shares_a_tail() {
        let mut links = Links::new(1, 3);
        assert_eq!(links.arrival(0, 1, 10, 50, 0.0, 40_000), 90_010, "a fault's delay added");
        assert_eq!(links.arrival(0, 1, 20, 50, 0.0, 0), 90_010, "a later message does not overtake");
        assert_eq!(links.arrival(1, 0, 20, 50, 0.0, 0), 50_020, "the other direction is its own link");
        assert_eq!(links.arrival(0, 2, 20, 50, 0.0, 0), 50_020);
        let first = links.arrival(2, 1, 1_000, 50, 1.0, 0);
        assert_eq!(links.arrival(2, 1, 1_000, 50, 1.0, 0), first, "one instant, one delay");
        assert_eq!(links.arrival(2, 1, 30_000, 50, 1.0, 0), first + 29_000, "within a latency: the same tail");
        let tails: Vec<Ns> = (1..50).map(|k| links.arrival(2, 1, k * 1_000_000, 50, 1.0, 0) - k * 1_000_000).collect();
        assert!(tails.windows(2).any(|w| w[0] != w[1]), "later sends meet new tails");
    }
}
