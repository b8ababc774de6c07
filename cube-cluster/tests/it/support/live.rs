//! The live cluster for `#[ignore = "needs cluster"]` tests: `CUBE_E2E_KUBECONFIG` (context
//! `CUBE_E2E_CONTEXT`, exec plugins only with `CUBE_E2E_ALLOW_EXEC=1`), read through the crate's
//! own kubeconfig validation and client builder.
//!
//! Run with `CUBE_E2E_KUBECONFIG=/path cargo test -p cube-cluster -- --ignored`; without the
//! variable both helpers return `None` and the tests skip.

use std::path::PathBuf;
use std::time::Duration;

use cube_cluster::client::{ClientOptions, build_client};
use cube_cluster::kubeconfig::{Kubeconfig, PluginPolicy, SelectOptions, Selection};

/// The validated selection of the live kubeconfig, or `None` when `CUBE_E2E_KUBECONFIG` is unset
/// (panics when it is set but unreadable or invalid: test helper).
pub fn live_selection() -> Option<Selection> {
    let path = PathBuf::from(std::env::var_os("CUBE_E2E_KUBECONFIG")?);
    let cfg = Kubeconfig::read(&path).expect("CUBE_E2E_KUBECONFIG must name a readable kubeconfig");
    let mut opts = SelectOptions::new();
    opts.context = std::env::var("CUBE_E2E_CONTEXT").ok();
    if std::env::var("CUBE_E2E_ALLOW_EXEC").is_ok_and(|v| v == "1") {
        opts.plugins = PluginPolicy::Allow;
    }
    Some(
        cfg.select(&opts)
            .expect("the live kubeconfig must validate"),
    )
}

/// A client for the live cluster (15 s timeout), or `None` when `CUBE_E2E_KUBECONFIG` is unset.
pub fn live_client() -> Option<kube::Client> {
    let selection = live_selection()?;
    let options = ClientOptions::with_timeout(Duration::from_secs(15));
    Some(build_client(&selection, &options).expect("client"))
}
