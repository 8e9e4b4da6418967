//! The user's saved scenarios as plain data: every entry has an id of its own (after saving,
//! importing, duplicating, undoing a delete, and when a list damaged by an older version is
//! read), names are bounded, a delete can be undone. The page keeps the list in local storage;
//! the rules live here so native tests reach them.

use super::scenario::{from_stored, Scenario};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Longest scenario name kept, in characters.
pub const NAME_MAX_CHARS: usize = 120;

/// A named scenario kept by the user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Saved {
    pub id: u64,
    pub name: String,
    pub scenario: Scenario,
}

/// A name cut to [`NAME_MAX_CHARS`].
#[must_use]
pub fn clip_name(name: &str) -> String {
    name.chars().take(NAME_MAX_CHARS).collect()
}

/// An id no entry of `list` has: `now` (a clock reading in ms) or, when the list already holds
/// that or a later one, one past the largest id.
#[must_use]
pub fn next_id(list: &[Saved], now: u64) -> u64 {
    let mut id = list.iter().map(|s| s.id.saturating_add(1)).max().unwrap_or(0).max(now);
    // Only reachable with an id of u64::MAX in the list: walk to a free one.
    while list.iter().any(|s| s.id == id) {
        id = id.wrapping_add(1);
    }
    id
}

/// `base`, or `base (2)`, `base (3)`, … whichever no entry of `list` is called.
#[must_use]
pub fn unique_name(list: &[Saved], base: &str) -> String {
    let free = |n: &str| !list.iter().any(|s| s.name == n);
    if free(base) {
        return base.to_string();
    }
    // Counting up from the number a copy already carries: "a (2)" duplicates to "a (3)".
    let (stem, from) = match base.rsplit_once(" (").and_then(|(s, n)| Some((s, n.strip_suffix(')')?.parse().ok()?))) {
        Some((stem, n)) => (stem, n),
        None => (base, 1u64),
    };
    // The number always fits: a long stem is cut to leave room for it.
    (from.saturating_add(1)..)
        .map(|n| {
            let suffix = format!(" ({n})");
            let stem: String = stem.chars().take(NAME_MAX_CHARS.saturating_sub(suffix.chars().count())).collect();
            stem + &suffix
        })
        .find(|n| free(n))
        .unwrap_or_else(|| base.to_string())
}

/// Gives every entry an id of its own (the first keeps it, later ones with the same id get new
/// ones); repairs lists imported by versions that gave every imported entry one id. Returns how
/// many ids changed.
pub fn make_ids_unique(list: &mut [Saved], now: u64) -> usize {
    let mut changed = 0;
    for i in 0..list.len() {
        if list[..i].iter().any(|s| s.id == list[i].id) {
            list[i].id = next_id(list, now);
            changed += 1;
        }
    }
    changed
}

/// What a save did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveOutcome {
    /// A new entry (no entry had the name).
    New(u64),
    /// An entry with the name already held exactly this scenario: nothing changed.
    Unchanged(u64),
    /// An entry with the name held another scenario: it is kept, and the scenario is saved
    /// beside it under the next free name ("a (2)"). Saving never overwrites silently.
    Beside {
        /// The new entry.
        id: u64,
        /// Its name.
        name: String,
        /// The entry that had the name.
        kept: u64,
    },
}

impl SaveOutcome {
    /// The id of the entry that holds the scenario now.
    #[must_use]
    pub fn id(&self) -> u64 {
        match self {
            Self::New(id) | Self::Unchanged(id) | Self::Beside { id, .. } => *id,
        }
    }
}

/// Saves the current scenario (see [`SaveOutcome`]).
pub fn save(list: &mut Vec<Saved>, s: &Scenario, now: u64) -> SaveOutcome {
    let name = clip_name(&s.name);
    let kept = match list.iter().find(|e| e.name == name) {
        Some(e) if e.scenario == Scenario { name: e.scenario.name.clone(), ..s.clone() } => {
            return SaveOutcome::Unchanged(e.id)
        }
        Some(e) => Some(e.id),
        None => None,
    };
    let name = unique_name(list, &name);
    let id = next_id(list, now);
    list.push(Saved { id, name: name.clone(), scenario: Scenario { name: name.clone(), ..s.clone() } });
    match kept {
        Some(kept) => SaveOutcome::Beside { id, name, kept },
        None => SaveOutcome::New(id),
    }
}

/// Puts the scenario of entry `from` into entry `into` and removes `from`: "replace the earlier
/// one instead" after a [`SaveOutcome::Beside`]. Nothing happens unless both exist.
pub fn replace(list: &mut Vec<Saved>, from: u64, into: u64) {
    let Some(i) = list.iter().position(|e| e.id == from) else { return };
    if from == into || !list.iter().any(|e| e.id == into) {
        return;
    }
    let src = list.remove(i);
    if let Some(e) = list.iter_mut().find(|e| e.id == into) {
        e.scenario = Scenario { name: e.name.clone(), ..src.scenario };
    }
}

/// Renames an entry (and the scenario inside it).
pub fn rename(list: &mut [Saved], id: u64, name: &str) {
    if let Some(e) = list.iter_mut().find(|e| e.id == id) {
        e.name = clip_name(name);
        e.scenario.name = e.name.clone();
    }
}

/// Copies an entry right after itself, under a name of its own and a new id. Returns that id.
pub fn duplicate(list: &mut Vec<Saved>, id: u64, now: u64) -> Option<u64> {
    let at = list.iter().position(|e| e.id == id)?;
    let e = &list[at];
    let name = unique_name(list, &e.name);
    let copy = Saved { id: next_id(list, now), name: name.clone(), scenario: Scenario { name, ..e.scenario.clone() } };
    let new_id = copy.id;
    list.insert(at + 1, copy);
    Some(new_id)
}

/// What a delete took away, to put it back.
#[derive(Debug, Clone, PartialEq)]
pub struct Removed {
    pub index: usize,
    pub entry: Saved,
}

/// Deletes one entry (only the one with this id).
pub fn remove(list: &mut Vec<Saved>, id: u64) -> Option<Removed> {
    let index = list.iter().position(|e| e.id == id)?;
    Some(Removed { index, entry: list.remove(index) })
}

/// Undoes a delete: the entry goes back where it was, with its id unless another entry has
/// taken it meanwhile. Returns the id it has now.
pub fn restore(list: &mut Vec<Saved>, removed: Removed, now: u64) -> u64 {
    let mut entry = removed.entry;
    if list.iter().any(|e| e.id == entry.id) {
        entry.id = next_id(list, now);
    }
    let id = entry.id;
    list.insert(removed.index.min(list.len()), entry);
    id
}

/// Reads an exported list (`[{id, name, scenario}, …]`) or a single scenario from a JSON file.
/// Every entry gets a new id, distinct from those in `list` and from each other; a name already
/// in the list gets a number. Older schemas are migrated, newer ones refused.
///
/// # Errors
/// The first problem: not JSON, an entry without a scenario, a newer schema, an invalid scenario.
pub fn import(text: &str, list: &[Saved], now: u64) -> Result<Vec<Saved>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let items: Vec<(Value, Option<String>)> = match value {
        Value::Array(items) => items
            .into_iter()
            .map(|mut it| {
                let name = it.get("name").and_then(Value::as_str).map(str::to_string);
                let sc = it.get_mut("scenario").map(Value::take).ok_or("an entry has no scenario")?;
                Ok((sc, name))
            })
            .collect::<Result<_, String>>()?,
        v => vec![(v, None)],
    };
    let mut all = list.to_vec();
    let first_new = all.len();
    for (v, name) in items {
        let s = from_stored(v).map_err(|e| e.to_string())?;
        s.validate().map_err(|e| e.to_string())?;
        let name = unique_name(&all, &clip_name(&name.unwrap_or_else(|| s.name.clone())));
        let id = next_id(&all, now);
        all.push(Saved { id, name: name.clone(), scenario: Scenario { name, ..s } });
    }
    Ok(all.split_off(first_new))
}
