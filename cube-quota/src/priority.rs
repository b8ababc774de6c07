//! Priority: a pod's priority from PriorityClasses (Priority admission plugin) and the
//! PriorityClass validation rules.
//!
//! Mirrors kubernetes `plugin/pkg/admission/priority/admission.go` and
//! `pkg/apis/scheduling/{helpers.go,validation/validation.go}` (K8S-SEMANTICS.md §5, §10.6).

use cube_model::objects::{ObjectMeta, Pod, PriorityClass};

/// Highest value a user-defined PriorityClass may have.
pub const HIGHEST_USER_DEFINABLE_PRIORITY: i32 = 1_000_000_000;
/// Value of `system-cluster-critical`.
pub const SYSTEM_CRITICAL_PRIORITY: i32 = 2_000_000_000;
/// `system-cluster-critical`.
pub const SYSTEM_CLUSTER_CRITICAL: &str = "system-cluster-critical";
/// `system-node-critical`.
pub const SYSTEM_NODE_CRITICAL: &str = "system-node-critical";
/// Priority when no globalDefault class exists.
pub const DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS: i32 = 0;
/// `PreemptLowerPriority`, the default preemption policy.
pub const PREEMPT_LOWER_PRIORITY: &str = "PreemptLowerPriority";
/// `Never`.
pub const PREEMPT_NEVER: &str = "Never";

/// The two built-in system classes with their values: `system-cluster-critical` (2000000000) and
/// `system-node-critical` (2000001000). The API server creates them at start-up.
pub fn system_priority_classes() -> Vec<PriorityClass> {
    [
        (SYSTEM_CLUSTER_CRITICAL, SYSTEM_CRITICAL_PRIORITY),
        (SYSTEM_NODE_CRITICAL, SYSTEM_CRITICAL_PRIORITY + 1000),
    ]
    .into_iter()
    .map(|(n, v)| PriorityClass {
        metadata: ObjectMeta {
            name: n.into(),
            ..Default::default()
        },
        value: v,
        global_default: false,
        preemption_policy: Some(PREEMPT_LOWER_PRIORITY.into()),
        description: String::new(),
    })
    .collect()
}

/// Finds a class by name among `classes`, falling back to the built-in system classes.
pub fn find_class<'a>(
    classes: &'a [PriorityClass],
    name: &str,
) -> Option<std::borrow::Cow<'a, PriorityClass>> {
    if let Some(c) = classes.iter().find(|c| c.metadata.name == name) {
        return Some(std::borrow::Cow::Borrowed(c));
    }
    system_priority_classes()
        .into_iter()
        .find(|c| c.metadata.name == name)
        .map(std::borrow::Cow::Owned)
}

/// The globalDefault class; with several (a race upstream allows), the one with the lowest
/// value (first in input order among equals).
pub fn default_class(classes: &[PriorityClass]) -> Option<&PriorityClass> {
    let mut best: Option<&PriorityClass> = None;
    for c in classes.iter().filter(|c| c.global_default) {
        if best.is_none_or(|b| c.value < b.value) {
            best = Some(c);
        }
    }
    best
}

/// What priority admission resolved for a pod.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResolvedPriority {
    /// `spec.priorityClassName` after admission (the globalDefault's name when the pod named
    /// none; empty when there is no default).
    pub class_name: String,
    /// `spec.priority`.
    pub priority: i32,
    /// `spec.preemptionPolicy` (`PreemptLowerPriority` or `Never`).
    pub preemption_policy: String,
}

/// Priority admission of a new pod (upstream `admitPod`, CREATE).
///
/// An empty class name takes the globalDefault class (or priority 0 and
/// `PreemptLowerPriority` when there is none); a named class must exist (built-in system
/// classes always do). A pod-supplied `priority` or `preemptionPolicy` that differs from the
/// computed one is rejected. No namespace restriction applies to system classes (v1.36).
///
/// # Errors
/// Upstream's texts (wrapped as Forbidden by the caller): `no PriorityClass with name <n> was
/// found`, `the integer value of priority (<p>) must not be provided in pod spec; priority
/// admission controller computed <v> from the given PriorityClass name`, `the string value of
/// PreemptionPolicy (<p>) must not be provided in pod spec; ...`.
pub fn resolve_pod_priority(
    pod: &Pod,
    classes: &[PriorityClass],
) -> Result<ResolvedPriority, String> {
    let (class_name, priority, policy) = if pod.spec.priority_class_name.is_empty() {
        match default_class(classes) {
            Some(c) => (
                c.metadata.name.clone(),
                c.value,
                c.preemption_policy
                    .clone()
                    .unwrap_or_else(|| PREEMPT_LOWER_PRIORITY.into()),
            ),
            None => (
                String::new(),
                DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS,
                PREEMPT_LOWER_PRIORITY.to_owned(),
            ),
        }
    } else {
        let name = &pod.spec.priority_class_name;
        let Some(c) = find_class(classes, name) else {
            return Err(format!("no PriorityClass with name {name} was found"));
        };
        (
            name.clone(),
            c.value,
            c.preemption_policy
                .clone()
                .unwrap_or_else(|| PREEMPT_LOWER_PRIORITY.into()),
        )
    };
    if let Some(p) = pod.spec.priority
        && p != priority
    {
        return Err(format!(
            "the integer value of priority ({p}) must not be provided in pod spec; priority admission controller computed {priority} from the given PriorityClass name"
        ));
    }
    if let Some(p) = &pod.spec.preemption_policy
        && *p != policy
    {
        return Err(format!(
            "the string value of PreemptionPolicy ({p}) must not be provided in pod spec; priority admission controller computed {policy} from the given PriorityClass name"
        ));
    }
    Ok(ResolvedPriority {
        class_name,
        priority,
        preemption_policy: policy,
    })
}

/// [`resolve_pod_priority`] without allocating: the class name after admission and the
/// priority, `None` when admission refuses the pod (the caller then asks
/// [`resolve_pod_priority`] for the message).
pub(crate) fn resolve_borrowed<'a>(
    pod: &'a Pod,
    classes: &'a [PriorityClass],
) -> Option<(&'a str, i32)> {
    let policy_of = |c: &'a PriorityClass| {
        c.preemption_policy
            .as_deref()
            .unwrap_or(PREEMPT_LOWER_PRIORITY)
    };
    let (class, priority, policy) = if pod.spec.priority_class_name.is_empty() {
        match default_class(classes) {
            Some(c) => (c.metadata.name.as_str(), c.value, policy_of(c)),
            None => (
                "",
                DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS,
                PREEMPT_LOWER_PRIORITY,
            ),
        }
    } else {
        let name = pod.spec.priority_class_name.as_str();
        match classes.iter().find(|c| c.metadata.name == name) {
            Some(c) => (name, c.value, policy_of(c)),
            None => match name {
                SYSTEM_CLUSTER_CRITICAL => (name, SYSTEM_CRITICAL_PRIORITY, PREEMPT_LOWER_PRIORITY),
                SYSTEM_NODE_CRITICAL => (
                    name,
                    SYSTEM_CRITICAL_PRIORITY + 1000,
                    PREEMPT_LOWER_PRIORITY,
                ),
                _ => return None,
            },
        }
    };
    if pod.spec.priority.is_some_and(|p| p != priority)
        || pod
            .spec
            .preemption_policy
            .as_deref()
            .is_some_and(|p| p != policy)
    {
        return None;
    }
    Some((class, priority))
}

/// Applies [`resolve_pod_priority`] to the pod: sets `priorityClassName`, `priority` and
/// `preemptionPolicy` as the admission plugin does.
///
/// # Errors
/// As [`resolve_pod_priority`].
pub fn admit_pod_priority(
    pod: &mut Pod,
    classes: &[PriorityClass],
) -> Result<ResolvedPriority, String> {
    let r = resolve_pod_priority(pod, classes)?;
    pod.spec.priority_class_name = r.class_name.clone();
    pod.spec.priority = Some(r.priority);
    pod.spec.preemption_policy = Some(r.preemption_policy.clone());
    Ok(r)
}

/// Field errors of a PriorityClass (upstream `ValidatePriorityClass`), rendered as
/// `<field>: Forbidden: <detail>` / `<field>: Unsupported value: ...`.
///
/// * a `system-` name must be a known system class with exactly its value and
///   `globalDefault: false`;
/// * otherwise the value may not exceed 1000000000;
/// * `preemptionPolicy` must be `PreemptLowerPriority` or `Never`.
pub fn validate_priority_class(pc: &PriorityClass) -> Vec<String> {
    let mut errs = Vec::new();
    let name = pc.metadata.name.as_str();
    if name.starts_with("system-") {
        let known = system_priority_classes();
        let problem = match known.iter().find(|k| k.metadata.name == name) {
            Some(k) if k.value != pc.value => {
                Some(format!("value of {name} PriorityClass must be {}", k.value))
            }
            Some(_) if pc.global_default => Some(format!(
                "globalDefault of {name} PriorityClass must be false"
            )),
            Some(_) => None,
            None => Some(format!("{name} is not a known system priority class")),
        };
        if let Some(p) = problem {
            errs.push(format!(
                "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: {p}"
            ));
        }
    } else if pc.value > HIGHEST_USER_DEFINABLE_PRIORITY {
        errs.push(format!(
            "value: Forbidden: maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}"
        ));
    }
    if let Some(p) = &pc.preemption_policy
        && p != PREEMPT_LOWER_PRIORITY
        && p != PREEMPT_NEVER
    {
        errs.push(format!(
            "preemptionPolicy: Unsupported value: {p:?}: supported values: \"Never\", \"PreemptLowerPriority\""
        ));
    }
    errs
}

/// The Priority plugin's check when a class is created with `globalDefault: true` while another
/// exists (upstream `validatePriorityClass` in the admission plugin).
///
/// # Errors
/// `PriorityClass <existing> is already marked as default. Only one default can exist`.
pub fn check_single_default(new: &PriorityClass, existing: &[PriorityClass]) -> Result<(), String> {
    if !new.global_default {
        return Ok(());
    }
    match existing
        .iter()
        .find(|c| c.global_default && c.metadata.name != new.metadata.name)
    {
        Some(c) => Err(format!(
            "PriorityClass {} is already marked as default. Only one default can exist",
            c.metadata.name
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pc(name: &str, value: i32, default: bool) -> PriorityClass {
        PriorityClass {
            metadata: ObjectMeta {
                name: name.into(),
                ..Default::default()
            },
            value,
            global_default: default,
            ..Default::default()
        }
    }

    #[test]
    fn lowest_global_default_wins() {
        let classes = [pc("a", 100, true), pc("b", 10, true), pc("c", 1, false)];
        let r = resolve_pod_priority(&Pod::default(), &classes).expect("admitted");
        assert_eq!((r.class_name.as_str(), r.priority), ("b", 10));
    }

    #[test]
    fn system_classes_are_built_in() {
        let mut pod = Pod::default();
        pod.spec.priority_class_name = SYSTEM_NODE_CRITICAL.into();
        let r = resolve_pod_priority(&pod, &[]).expect("admitted");
        assert_eq!(r.priority, 2_000_001_000);
    }

    #[test]
    fn preemption_policy_mismatch() {
        let mut c = pc("batch", 100, false);
        c.preemption_policy = Some("Never".into());
        let mut pod = Pod::default();
        pod.spec.priority_class_name = "batch".into();
        pod.spec.preemption_policy = Some("PreemptLowerPriority".into());
        assert_eq!(
            resolve_pod_priority(&pod, &[c]).unwrap_err(),
            "the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name"
        );
    }

    #[test]
    fn class_validation() {
        assert!(
            validate_priority_class(&pc("system-cluster-critical", 2_000_000_000, false))
                .is_empty()
        );
        assert_eq!(
            validate_priority_class(&pc("system-foo", 1, false)),
            vec!["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-foo is not a known system priority class".to_string()]
        );
        assert_eq!(
            validate_priority_class(&pc("big", 1_000_000_001, false)),
            vec![
                "value: Forbidden: maximum allowed value of a user defined priority is 1000000000"
                    .to_string()
            ]
        );
        assert_eq!(
            check_single_default(&pc("n", 1, true), &[pc("old", 5, true)]).unwrap_err(),
            "PriorityClass old is already marked as default. Only one default can exist"
        );
    }
}
