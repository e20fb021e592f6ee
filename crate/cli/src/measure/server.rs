//! The server measured: a PostgreSQL (crate `postgres`) or a MySQL or MariaDB (crate
//! `mysql`), each named by its own kind of URL. Here is what differs between them: how the
//! URL is read, whether it names this machine, and how a connection runs a statement.

use mysql::prelude::Queryable;

/// A server to measure, as its URL named it.
#[derive(Clone)]
pub enum Server {
    Postgres(Box<postgres::Config>),
    Mysql(mysql::Opts),
}

/// One client's connection.
pub enum Conn {
    Postgres(Box<postgres::Client>),
    Mysql(mysql::Conn),
}

impl Server {
    /// `--postgres CONNINFO` or `--mysql URL`: exactly one of them.
    pub fn parse(postgres: Option<&str>, mysql: Option<&str>) -> Result<Server, String> {
        match (postgres, mysql) {
            (Some(url), None) => {
                url.parse().map(|c| Server::Postgres(Box::new(c))).map_err(|e| format!("--postgres {url}: not a PostgreSQL connection string ({e})"))
            }
            (None, Some(url)) => mysql::Opts::from_url(url)
                .map(Server::Mysql)
                .map_err(|e| format!("--mysql {url}: not a MySQL URL, e.g. mysql://user@127.0.0.1:3306/db or mysql://root@localhost/db?socket=/run/mysqld/mysqld.sock ({e})")),
            (Some(_), Some(_)) => Err("give one server: --postgres or --mysql, not both".into()),
            (None, None) => Err("name the server to measure: --postgres CONNINFO or --mysql URL".into()),
        }
    }

    /// The server's kind, as the output names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Server::Postgres(_) => "PostgreSQL",
            Server::Mysql(_) => "MySQL",
        }
    }

    /// The flag that named it.
    fn flag(&self) -> &'static str {
        match self {
            Server::Postgres(_) => "--postgres",
            Server::Mysql(_) => "--mysql",
        }
    }

    /// A server on this machine: a Unix socket, or a loopback address.
    pub fn local_only(&self) -> Result<(), String> {
        let loopback = |name: &str| name == "localhost" || name.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
        let elsewhere = match self {
            Server::Postgres(c) => c.get_hosts().iter().find_map(|host| match host {
                postgres::config::Host::Unix(_) => None,
                postgres::config::Host::Tcp(name) => (!loopback(name)).then(|| name.clone()),
            }),
            Server::Mysql(o) => {
                let host = o.get_ip_or_hostname();
                (o.get_socket().is_none() && !loopback(&host)).then(|| host.into_owned())
            }
        };
        match elsewhere {
            Some(host) => Err(format!(
                "{} names a server that is not on this machine ({host}): hotrow measure runs there only with --allow-remote (it writes to the workload's tables)",
                self.flag()
            )),
            None => Ok(()),
        }
    }

    pub fn connect(&self) -> Result<Conn, String> {
        match self {
            Server::Postgres(c) => {
                c.connect(postgres::NoTls).map(|c| Conn::Postgres(Box::new(c))).map_err(|e| format!("cannot connect: {}", pg_error(&e)))
            }
            Server::Mysql(o) => mysql::Conn::new(o.clone()).map(Conn::Mysql).map_err(|e| format!("cannot connect: {e}")),
        }
    }
}

impl Conn {
    /// Runs one statement (or, on PostgreSQL, a batch); the server's words when it fails.
    pub fn run(&mut self, sql: &str) -> Result<(), String> {
        match self {
            Conn::Postgres(c) => c.batch_execute(sql).map_err(|e| pg_error(&e)),
            Conn::Mysql(c) => c.query_drop(sql).map_err(|e| e.to_string()),
        }
    }
}

/// PostgreSQL's own words for an error, when it said any.
fn pg_error(e: &postgres::Error) -> String {
    e.as_db_error().map_or_else(|| e.to_string(), |d| format!("{}: {}", d.severity(), d.message()))
}
