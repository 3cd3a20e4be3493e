//! A real Calimero node (../shared/realnode, 0.11.0-rc.4) for end-to-end tests:
//! one node per scenario on a free loopback port with its own home in a
//! tempdir, stopped by a Drop guard (also on panic). Without the node the
//! tests print a loud `skipped:` line; CALIMCP_REQUIRE_REALNODE=1 fails them.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct RealNode {
    pub url: String,
    child: Child,
    _home: tempfile::TempDir,
}

impl Drop for RealNode {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn binary() -> Option<PathBuf> {
    let bin =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realnode/bin/calimero-node-rc4");
    bin.is_file().then_some(bin)
}

fn skip(test: &str, why: &str) -> Option<RealNode> {
    if std::env::var_os("CALIMCP_REQUIRE_REALNODE").is_some_and(|v| v == "1") {
        panic!("{test}: {why} (CALIMCP_REQUIRE_REALNODE=1)");
    }
    eprintln!("skipped: {test}: {why}");
    None
}

fn healthy(port: u16) -> bool {
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let req = "GET /admin-api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if s.write_all(req.as_bytes()).is_err() {
        return false;
    }
    let mut buf = String::new();
    let _ = s.read_to_string(&mut buf);
    buf.starts_with("HTTP/1.1 200")
}

impl RealNode {
    /// Starts a node with proxy auth (none in the node), or skips.
    pub fn start(test: &str) -> Option<RealNode> {
        let Some(bin) = binary() else {
            return skip(
                test,
                "no real node at ../shared/realnode/bin/calimero-node-rc4",
            );
        };
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let home = tempfile::tempdir().expect("tempdir");
        let child = Command::new(bin)
            .env("REALNODE_HOME", home.path())
            .env("REALNODE_PORT", port.to_string())
            .env("REALNODE_AUTH", "proxy")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the node starts");
        let mut node = RealNode {
            url: format!("http://127.0.0.1:{port}"),
            child,
            _home: home,
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        while !healthy(port) {
            if let Ok(Some(status)) = node.child.try_wait() {
                panic!("the real node exited: {status}");
            }
            assert!(
                Instant::now() < deadline,
                "the real node not healthy in 60 s"
            );
            std::thread::sleep(Duration::from_millis(25));
        }
        Some(node)
    }
}
