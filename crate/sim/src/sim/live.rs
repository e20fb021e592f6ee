//! Live changes: fields a running simulation can take without being rebuilt. Which fields
//! those are is the config's field table (`live` column), not this file's choice.

use super::client::Client;
use super::event::Event;
use super::Simulation;
use crate::config::{self, Config, ConfigError};
use serde_json::Value;

impl Simulation {
    /// Changes one config field while running, by its camelCase (dotted) name: e.g.
    /// `cacheSize` (later fetches take that many ids), `hintedRefill`,
    /// `clientsPerApiNode` (clients are added, or retire after their current
    /// transaction), `thinkTimeUs`, `network.latencyUs`, `cpu.lqhWriteNs`. The value is
    /// validated like a new config; on error nothing changes. Fields that shape the
    /// cluster (`dataNodes`, `replicas`, ...) are refused: they need a new simulation.
    pub fn set(&mut self, key: &str, value: Value) -> Result<(), ConfigError> {
        let Value::Object(mut obj) = serde_json::to_value(&self.cfg).expect("Config serialises") else {
            unreachable!("Config is an object")
        };
        let old = Value::Object(obj.clone());
        config::set_dotted(&mut obj, key, value.clone())?;
        let next = Config::from_json(&Value::Object(obj))?;
        let new = serde_json::to_value(&next).expect("Config serialises");
        if let Some(field) = config::fields::first_changed_fixed(&old, &new) {
            return Err(ConfigError::new(field, value, "cannot change in a running simulation; create a new Simulation with this config"));
        }
        let clients_changed = next.clients_per_api_node != self.cfg.clients_per_api_node;
        let was_open = self.open();
        let arrivals_changed =
            (next.arrival_rate_per_api_node, next.arrival_cv) != (self.cfg.arrival_rate_per_api_node, self.cfg.arrival_cv);
        self.cfg = next;
        self.zero_load = crate::summary::ZeroLoad::default();
        if clients_changed {
            self.resize_clients();
            self.clients_added();
        }
        if arrivals_changed {
            if was_open && !self.open() {
                self.close_arrivals();
            }
            self.start_arrivals();
        }
        Ok(())
    }

    /// Brings each API node's active clients to `clientsPerApiNode`: reactivates retiring
    /// ones first, then adds new ones; or lets the last ones retire.
    fn resize_clients(&mut self) {
        let want = self.cfg.clients_per_api_node;
        for api in 0..self.cfg.api_nodes {
            let mut have = 0;
            for c in 0..self.clients.len() as u32 {
                if self.clients[c as usize].api != api {
                    continue;
                }
                have += 1;
                let client = &mut self.clients[c as usize];
                client.active = have <= want;
                // An idle client thread (open arrivals) already waits in its API node's list.
                if client.active && !client.running && !client.idle {
                    client.running = true;
                    self.queue.push(self.now_ns, Event::ClientStart { client: c });
                }
            }
            for _ in have..want {
                let c = self.clients.len() as u32;
                self.clients.push(Client::new(&self.cfg, c, api));
                self.queue.push(self.now_ns, Event::ClientStart { client: c });
            }
        }
    }
}
