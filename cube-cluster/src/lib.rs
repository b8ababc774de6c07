//! cube-cluster: the edge to real clusters.
//!
//! Module map:
//! - [`api`]: the async seams (dyn-compatible, `Send + Sync`) every network operation goes
//!   through: [`api::ServerInfo`], [`api::ObjectReader`], [`api::ObjectApplier`],
//!   [`api::AccessReviewer`], all of them as [`api::ClusterApi`]; implemented by `kube::Client`
//!   and by [`memory::MemoryCluster`].
//! - [`apply`]: a resource-group plan applied with server-side apply: drift per object and field,
//!   a server-side dry run first, a safe order, prune only of owned objects, quota usage read back.
//! - [`memory`]: an in-memory API server (objects, pagination, RBAC, server-side apply with
//!   managed fields, dry run, admission) for tests and downstream users.
//! - [`ssa`]: server-side apply field sets and `FieldsV1` managed fields.
//! - [`kubeconfig`]: typed kubeconfig model; load, merge (client-go rules), select, validate,
//!   rewrite the server, inline files; [`kubeconfig::Secret`] redacts secrets.
//! - [`client`]: build a `kube::Client` from a validated [`kubeconfig::Selection`].
//! - [`exec`]: exec credential plugins run with a deadline and a bounded output (client-go's
//!   `ExecCredential` protocol); their credential is handed to the client.
//! - [`tls`]: server certificate verification as client-go does it when the server's own
//!   certificate is in the CA bundle.
//! - [`classify`]: classify connection failures from kube/hyper/rustls error chains and from
//!   error texts (kubectl, client-go, peer tools).
//! - [`connect`]: connection check (`/version`) with a classified outcome.
//! - [`import`](mod@import): import one cluster verified right by default ([`import()`]):
//!   offline checks with certificates parsed, connection, authentication, RBAC with the minimal
//!   set plus asked profiles, least-privilege manifests, the ServiceAccount created and verified
//!   on request; [`import::ClusterImport::to_import_report`] fills the
//!   `cube_model::import::ImportReport` that diagnosis reads.
//! - [`fleet`]: every registry cluster probed at once: health as a Karmada-style cluster taint,
//!   version, nodes, CPU/memory/GPU capacity, allocatable and free per cluster and per pool.
//! - [`probe`]: probe many clusters concurrently with bounded concurrency and per-cluster timeout.
//! - [`rbac`]: offline RBAC evaluation over Role/ClusterRole/RoleBinding/ClusterRoleBinding objects.
//! - [`profiles`]: capability profiles as data, checked offline or live (SelfSubjectAccessReview).
//! - [`manifests`]: least-privilege ServiceAccount manifests and kubeconfig for a profile.
//! - [`join`]: `kubeadm join` commands: token and CA pin validation, bootstrap token expiry.
//! - [`snapshot`]: live, paginated snapshot collection into a `ClusterSnapshot`; Forbidden kinds are
//!   recorded as missing, not fatal.
//!
//! Offline validation of a kubeconfig, without any connection:
//!
//! ```no_run
//! use cube_cluster::kubeconfig::{Kubeconfig, SelectOptions};
//! # fn main() -> Result<(), cube_cluster::Error> {
//! let cfg = Kubeconfig::read(std::path::Path::new("/home/me/.kube/config"))?;
//! for problem in cfg.check(&SelectOptions::new()) {
//!     println!("{problem}");
//! }
//! # Ok(()) }
//! ```

pub mod api;
pub mod apply;
pub mod certs;
pub mod classify;
pub mod client;
pub mod connect;
pub mod error;
pub mod exec;
pub mod fleet;
pub mod http;
pub mod import;
pub mod join;
pub mod kubeconfig;
pub mod limits;
pub mod manifests;
pub mod memory;
pub mod probe;
pub mod profiles;
pub mod rbac;
pub mod registry;
pub mod snapshot;
pub mod ssa;
pub mod tls;

pub use error::{Error, Result};
/// Import one cluster ([`import::import`]).
pub use import::import;
/// The kubeconfig's `clusters[]` entry, under a name that does not clash with
/// `cube_model::Cluster` (a target cluster of the registry).
pub use kubeconfig::Cluster as KubeconfigCluster;
/// The kubeconfig's `contexts[]` entry, under a name that does not clash with
/// `cube_diagnose::Context`.
pub use kubeconfig::Context as KubeconfigContext;
/// How bad a kubeconfig problem is, under a name that does not clash with
/// `cube_diagnose::Severity`.
pub use kubeconfig::Severity as KubeconfigSeverity;
