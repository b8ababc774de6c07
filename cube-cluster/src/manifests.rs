//! Least-privilege manifests for a capability profile: the ServiceAccount's Namespace (so that
//! `kubectl apply` of the manifests works on a fresh server, where `cube-system` does not exist:
//! the `NamespaceLifecycle` admission plugin answers `namespaces "cube-system" not found`), a
//! ServiceAccount, a ClusterRole and/or Roles with exactly the profile's rules, their bindings,
//! an optional token Secret, and a kubeconfig for the ServiceAccount (token from a TokenRequest
//! when live, or read from the token Secret).
//!
//! The rules come from [`crate::profiles::rules_granting`]: plain verbs, groups and resources, no
//! `*`, no resourceNames, nothing the profile does not check. Cluster-scoped and all-namespace
//! checks go into one ClusterRole bound by a ClusterRoleBinding; per-namespace checks into a Role
//! and RoleBinding in each namespace (a RoleBinding grants only inside its namespace, K8S-SEMANTICS
//! §7.1).
//!
//! Mirrors: `kubectl create serviceaccount/role/rolebinding` output shapes; the legacy
//! `kubernetes.io/service-account-token` Secret (filled by the token controller); the
//! `authentication.k8s.io/v1` TokenRequest subresource `serviceaccounts/<name>/token`
//! (what `kubectl create token` calls).
//!
//! ```
//! use cube_cluster::manifests::{ManifestOptions, manifests_for};
//! use cube_cluster::profiles::Profile;
//!
//! let profile = Profile::builtin("console-readonly").unwrap();
//! let m = manifests_for(&profile, &[], &ManifestOptions::new("cube-console", "cube-system")).unwrap();
//! let yaml = m.to_yaml().unwrap();
//! assert!(yaml.contains("kind: ClusterRoleBinding"));
//! assert!(!yaml.contains("'*'"));
//! ```

use std::collections::BTreeMap;
use std::fmt;

use base64::Engine as _;
use k8s_openapi::api::core::v1::{Namespace, Secret, ServiceAccount};
use k8s_openapi::api::rbac::v1 as rbacv1;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::Serialize;

use crate::profiles::{Profile, ProfileError};

/// `rbac.authorization.k8s.io`.
pub const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

/// Errors of manifest and kubeconfig generation, and of token requests.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ManifestError {
    /// The profile could not be expanded (per-namespace checks without namespaces).
    #[error("cannot expand profile")]
    Profile(#[source] ProfileError),
    /// An object could not be rendered as YAML.
    #[error("cannot render {object} as yaml")]
    Render {
        /// `kind/name`.
        object: String,
        /// Serializer message.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The TokenRequest failed (network, 403, ...).
    #[error("token request for serviceaccount {namespace}/{name} failed")]
    TokenRequest {
        /// ServiceAccount namespace.
        namespace: String,
        /// ServiceAccount name.
        name: String,
        /// Client error (never contains the token: the body is parsed here, not logged).
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A token Secret or TokenRequest answer holds no token.
    #[error("no token in {what}")]
    NoToken {
        /// What was read.
        what: String,
    },
}

/// Names and labels for the generated objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestOptions {
    /// ServiceAccount name.
    pub service_account: String,
    /// Namespace of the ServiceAccount.
    pub namespace: String,
    /// Name of the ClusterRole, Roles and bindings; default `<service_account>-<profile>`.
    pub role_name: Option<String>,
    /// Also emit a `kubernetes.io/service-account-token` Secret named `<service_account>-token`
    /// (a long-lived token; prefer a TokenRequest).
    pub token_secret: bool,
    /// Labels put on every object (`app.kubernetes.io/managed-by: cube-rs` is always added).
    pub labels: BTreeMap<String, String>,
}

impl ManifestOptions {
    /// ServiceAccount `name` in `namespace`, default role names, no token Secret.
    pub fn new(service_account: &str, namespace: &str) -> Self {
        ManifestOptions {
            service_account: service_account.to_string(),
            namespace: namespace.to_string(),
            role_name: None,
            token_secret: false,
            labels: BTreeMap::new(),
        }
    }

    /// Use `name` for the roles and bindings.
    #[must_use]
    pub fn role_name(mut self, name: &str) -> Self {
        self.role_name = Some(name.to_string());
        self
    }

    /// Emit a token Secret too.
    #[must_use]
    pub fn with_token_secret(mut self) -> Self {
        self.token_secret = true;
        self
    }
}

/// The generated objects.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifests {
    /// The ServiceAccount's namespace (applying an existing namespace changes nothing).
    pub namespace: Namespace,
    /// The ServiceAccount.
    pub service_account: ServiceAccount,
    /// ClusterRole with the cluster-scope and all-namespace rules, if the profile has any.
    pub cluster_role: Option<rbacv1::ClusterRole>,
    /// Its ClusterRoleBinding to the ServiceAccount.
    pub cluster_role_binding: Option<rbacv1::ClusterRoleBinding>,
    /// One Role per namespace with the per-namespace rules.
    pub roles: Vec<rbacv1::Role>,
    /// One RoleBinding per Role.
    pub role_bindings: Vec<rbacv1::RoleBinding>,
    /// The token Secret, when asked for.
    pub token_secret: Option<Secret>,
}

fn meta(name: &str, namespace: Option<&str>, labels: &BTreeMap<String, String>) -> ObjectMeta {
    let mut labels = labels.clone();
    labels.insert("app.kubernetes.io/managed-by".into(), "cube-rs".into());
    ObjectMeta {
        name: Some(name.to_string()),
        namespace: namespace.map(str::to_string),
        labels: Some(labels),
        ..Default::default()
    }
}

fn to_openapi_rule(r: &cube_model::objects::PolicyRule) -> rbacv1::PolicyRule {
    let opt = |v: &Vec<String>| (!v.is_empty()).then(|| v.clone());
    rbacv1::PolicyRule {
        api_groups: opt(&r.api_groups),
        non_resource_urls: opt(&r.non_resource_urls),
        resource_names: opt(&r.resource_names),
        resources: opt(&r.resources),
        verbs: r.verbs.clone(),
    }
}

/// Build the least-privilege objects for `profile` (per-namespace checks in `namespaces`).
///
/// # Errors
/// [`ManifestError::Profile`] when the profile needs namespaces and none are given.
pub fn manifests_for(
    profile: &Profile,
    namespaces: &[String],
    opts: &ManifestOptions,
) -> Result<Manifests, ManifestError> {
    let scoped = profile
        .grant_rules(namespaces)
        .map_err(ManifestError::Profile)?;
    let role_name = opts
        .role_name
        .clone()
        .unwrap_or_else(|| format!("{}-{}", opts.service_account, profile.name));
    let subject = rbacv1::Subject {
        api_group: None,
        kind: "ServiceAccount".into(),
        name: opts.service_account.clone(),
        namespace: Some(opts.namespace.clone()),
    };
    let mut m = Manifests {
        namespace: Namespace {
            metadata: meta(&opts.namespace, None, &opts.labels),
            ..Default::default()
        },
        service_account: ServiceAccount {
            metadata: meta(&opts.service_account, Some(&opts.namespace), &opts.labels),
            ..Default::default()
        },
        cluster_role: None,
        cluster_role_binding: None,
        roles: Vec::new(),
        role_bindings: Vec::new(),
        token_secret: None,
    };
    for s in scoped {
        let rules = Some(s.rules.iter().map(to_openapi_rule).collect());
        match s.namespace {
            None => {
                m.cluster_role = Some(rbacv1::ClusterRole {
                    metadata: meta(&role_name, None, &opts.labels),
                    rules,
                    aggregation_rule: None,
                });
                m.cluster_role_binding = Some(rbacv1::ClusterRoleBinding {
                    metadata: meta(&role_name, None, &opts.labels),
                    role_ref: rbacv1::RoleRef {
                        api_group: Some(RBAC_GROUP.into()),
                        kind: "ClusterRole".into(),
                        name: role_name.clone(),
                    },
                    subjects: Some(vec![subject.clone()]),
                });
            }
            Some(ns) => {
                m.roles.push(rbacv1::Role {
                    metadata: meta(&role_name, Some(&ns), &opts.labels),
                    rules,
                });
                m.role_bindings.push(rbacv1::RoleBinding {
                    metadata: meta(&role_name, Some(&ns), &opts.labels),
                    role_ref: rbacv1::RoleRef {
                        api_group: Some(RBAC_GROUP.into()),
                        kind: "Role".into(),
                        name: role_name.clone(),
                    },
                    subjects: Some(vec![subject.clone()]),
                });
            }
        }
    }
    if opts.token_secret {
        let mut md = meta(
            &format!("{}-token", opts.service_account),
            Some(&opts.namespace),
            &opts.labels,
        );
        md.annotations = Some(BTreeMap::from([(
            "kubernetes.io/service-account.name".to_string(),
            opts.service_account.clone(),
        )]));
        m.token_secret = Some(Secret {
            metadata: md,
            type_: Some("kubernetes.io/service-account-token".into()),
            ..Default::default()
        });
    }
    Ok(m)
}

fn push<T: Serialize>(
    out: &mut Vec<(&'static str, serde_json::Value)>,
    kind: &'static str,
    name: &Option<String>,
    obj: &T,
) -> Result<(), ManifestError> {
    let value = serde_json::to_value(obj).map_err(|e| ManifestError::Render {
        object: format!("{kind}/{}", name.as_deref().unwrap_or("")),
        source: Box::new(e),
    })?;
    out.push((kind, value));
    Ok(())
}

impl Manifests {
    /// Multi-document YAML in apply order: Namespace, ServiceAccount, ClusterRole,
    /// ClusterRoleBinding, Roles, RoleBindings, token Secret.
    ///
    /// # Errors
    /// [`ManifestError::Render`] if an object cannot be serialized.
    pub fn to_yaml(&self) -> Result<String, ManifestError> {
        let mut out = String::new();
        for (kind, value) in self.to_objects()? {
            let text = serde_saphyr::to_string(&value).map_err(|e| ManifestError::Render {
                object: format!(
                    "{kind}/{}",
                    value["metadata"]["name"].as_str().unwrap_or("")
                ),
                source: Box::new(e),
            })?;
            if !out.is_empty() {
                out.push_str("---\n");
            }
            out.push_str(&text);
            if !out.ends_with('\n') {
                out.push('\n');
            }
        }
        Ok(out)
    }

    /// The objects as JSON (with `apiVersion` and `kind`), in apply order (see
    /// [`Manifests::to_yaml`]), each with its kind: what a server-side apply sends.
    ///
    /// # Errors
    /// [`ManifestError::Render`] if an object cannot be serialized.
    pub fn to_objects(&self) -> Result<Vec<(&'static str, serde_json::Value)>, ManifestError> {
        let mut out = Vec::new();
        push(
            &mut out,
            "Namespace",
            &self.namespace.metadata.name,
            &self.namespace,
        )?;
        push(
            &mut out,
            "ServiceAccount",
            &self.service_account.metadata.name,
            &self.service_account,
        )?;
        if let Some(r) = &self.cluster_role {
            push(&mut out, "ClusterRole", &r.metadata.name, r)?;
        }
        if let Some(b) = &self.cluster_role_binding {
            push(&mut out, "ClusterRoleBinding", &b.metadata.name, b)?;
        }
        for r in &self.roles {
            push(&mut out, "Role", &r.metadata.name, r)?;
        }
        for b in &self.role_bindings {
            push(&mut out, "RoleBinding", &b.metadata.name, b)?;
        }
        if let Some(s) = &self.token_secret {
            push(&mut out, "Secret", &s.metadata.name, s)?;
        }
        Ok(out)
    }
}

// ------------------------------------------------------------------ token and kubeconfig

/// A bearer token; shown as `****` in Debug and Display.
#[derive(Clone, PartialEq, Eq)]
pub struct BearerToken(String);

impl BearerToken {
    /// Wrap a token.
    pub fn new(token: impl Into<String>) -> Self {
        BearerToken(token.into())
    }
    /// The token, for the one place that must send or write it.
    pub fn expose_secret(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BearerToken(****)")
    }
}

impl fmt::Display for BearerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("****")
    }
}

/// A kubeconfig for one ServiceAccount: server, CA, token. Debug and Display never show the
/// token; [`ServiceAccountKubeconfig::to_yaml`] writes it (that file is a credential).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceAccountKubeconfig {
    /// Name used for the cluster, user and context entries.
    pub cluster_name: String,
    /// API server URL (`https://...`).
    pub server: String,
    /// CA certificate(s), PEM (written base64-encoded as `certificate-authority-data`).
    pub ca_pem: Option<String>,
    /// Default namespace of the context (`None`: none set).
    pub namespace: Option<String>,
    /// User entry name (`<namespace>:<serviceaccount>` by convention).
    pub user_name: String,
    /// The token.
    pub token: BearerToken,
}

impl fmt::Display for ServiceAccountKubeconfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "kubeconfig for {} at {} (token ****)",
            self.user_name, self.server
        )
    }
}

impl ServiceAccountKubeconfig {
    /// A kubeconfig for ServiceAccount `namespace/name` on `server`.
    pub fn new(
        cluster_name: &str,
        server: &str,
        ca_pem: Option<String>,
        namespace: &str,
        service_account: &str,
        token: BearerToken,
    ) -> Self {
        ServiceAccountKubeconfig {
            cluster_name: cluster_name.to_string(),
            server: server.to_string(),
            ca_pem,
            namespace: Some(namespace.to_string()),
            user_name: format!("{namespace}:{service_account}"),
            token,
        }
    }

    /// The kubeconfig file text (YAML, `apiVersion: v1`, `kind: Config`). CONTAINS THE TOKEN.
    ///
    /// # Errors
    /// [`ManifestError::Render`] if serialization fails.
    pub fn to_yaml(&self) -> Result<String, ManifestError> {
        let mut cluster = serde_json::json!({ "server": self.server });
        if let Some(ca) = &self.ca_pem {
            cluster["certificate-authority-data"] = base64::engine::general_purpose::STANDARD
                .encode(ca.as_bytes())
                .into();
        }
        let mut context = serde_json::json!({
            "cluster": self.cluster_name,
            "user": self.user_name,
        });
        if let Some(ns) = &self.namespace {
            context["namespace"] = ns.clone().into();
        }
        let context_name = format!("{}@{}", self.user_name, self.cluster_name);
        let doc = serde_json::json!({
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{"name": self.cluster_name, "cluster": cluster}],
            "users": [{"name": self.user_name, "user": {"token": self.token.expose_secret()}}],
            "contexts": [{"name": context_name, "context": context}],
            "current-context": context_name,
        });
        // The error never carries the document (only the serializer's message).
        serde_saphyr::to_string(&doc).map_err(|e| ManifestError::Render {
            object: "Config/kubeconfig".into(),
            source: Box::new(e),
        })
    }
}

/// Token and CA from a filled `kubernetes.io/service-account-token` Secret (JSON as the API
/// returns it): `data.token` and `data["ca.crt"]`, base64-decoded.
///
/// # Errors
/// [`ManifestError::NoToken`] when the Secret has no (decodable) token yet.
pub fn token_from_secret(
    secret: &serde_json::Value,
) -> Result<(BearerToken, Option<String>), ManifestError> {
    let name = secret["metadata"]["name"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let decode = |key: &str| -> Option<String> {
        let v = secret.get("data")?.get(key)?.as_str()?;
        let bytes = base64::engine::general_purpose::STANDARD.decode(v).ok()?;
        String::from_utf8(bytes).ok()
    };
    let token = decode("token").ok_or_else(|| ManifestError::NoToken {
        what: format!("secret {name}"),
    })?;
    Ok((BearerToken(token), decode("ca.crt")))
}

/// A token from the TokenRequest API, with its expiry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestedToken {
    /// The token.
    pub token: BearerToken,
    /// `status.expirationTimestamp`.
    pub expiration: Option<jiff::Timestamp>,
}

/// Live: POST a TokenRequest to `/api/v1/namespaces/<ns>/serviceaccounts/<name>/token`
/// (`kubectl create token`), asking for `expiration_secs` (the server may shorten it; `None`
/// leaves the server default, one hour).
///
/// # Errors
/// [`ManifestError::TokenRequest`] for client/server errors, [`ManifestError::NoToken`] when the
/// answer has no token. The response body is parsed here so it is never logged.
pub async fn request_token(
    client: &kube::Client,
    namespace: &str,
    service_account: &str,
    expiration_secs: Option<i64>,
) -> Result<RequestedToken, ManifestError> {
    let err = |e: Box<dyn std::error::Error + Send + Sync>| ManifestError::TokenRequest {
        namespace: namespace.to_string(),
        name: service_account.to_string(),
        source: e,
    };
    let mut spec = serde_json::json!({ "audiences": [] });
    if let Some(s) = expiration_secs {
        spec["expirationSeconds"] = s.into();
    }
    let body = serde_json::json!({
        "apiVersion": "authentication.k8s.io/v1",
        "kind": "TokenRequest",
        "spec": spec,
    });
    let req = http::Request::post(format!(
        "/api/v1/namespaces/{namespace}/serviceaccounts/{service_account}/token"
    ))
    .header(http::header::CONTENT_TYPE, "application/json")
    .body(serde_json::to_vec(&body).map_err(|e| err(Box::new(e)))?)
    .map_err(|e| err(Box::new(e)))?;
    let text = client
        .request_text(req)
        .await
        .map_err(|e| err(Box::new(e)))?;
    parse_token_request_response(&text).ok_or_else(|| ManifestError::NoToken {
        what: format!("token request answer for {namespace}/{service_account}"),
    })
}

/// Read `status.token` and `status.expirationTimestamp` of a TokenRequest answer.
pub fn parse_token_request_response(text: &str) -> Option<RequestedToken> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let token = v["status"]["token"].as_str().filter(|t| !t.is_empty())?;
    Some(RequestedToken {
        token: BearerToken(token.to_string()),
        expiration: v["status"]["expirationTimestamp"]
            .as_str()
            .and_then(|t| t.parse().ok()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_never_shown() {
        let t = BearerToken::new("eyJhbGciOi.secret-part");
        let kc = ServiceAccountKubeconfig::new(
            "prod",
            "https://127.0.0.1:6443",
            None,
            "cube-system",
            "cube",
            t,
        );
        assert!(!format!("{kc:?}").contains("secret-part"));
        assert!(!kc.to_string().contains("secret-part"));
        assert!(kc.to_yaml().unwrap().contains("eyJhbGciOi.secret-part"));
        let r = parse_token_request_response(
            r#"{"status":{"token":"abc.def","expirationTimestamp":"2026-11-30T13:00:00Z"}}"#,
        )
        .unwrap();
        assert_eq!(r.token.expose_secret(), "abc.def");
        assert!(!format!("{r:?}").contains("abc.def"));
        assert!(parse_token_request_response(r#"{"status":{}}"#).is_none());
    }
}
