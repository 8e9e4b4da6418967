//! Scenario persistence in local storage. Storage can be missing (sandboxed iframe, private
//! mode) or hold corrupted text: every call returns a Result and never panics.

use crate::domain::Scenario;

/// Key of the current scenario.
pub const CURRENT_KEY: &str = "gpu-planner/current/v1";

fn local() -> Option<web_sys::Storage> {
    // gloo-storage panics when storage is blocked; ask the window ourselves.
    web_sys::window()?.local_storage().ok().flatten()
}

/// The saved current scenario, if any.
///
/// # Errors
/// A message when storage is unavailable or the saved text is not a scenario.
pub fn load() -> Result<Option<Scenario>, String> {
    let st = local().ok_or("local storage is not available")?;
    let Some(text) = st.get_item(CURRENT_KEY).map_err(|_| "local storage could not be read")? else { return Ok(None) };
    serde_json::from_str(&text).map(Some).map_err(|e| format!("saved scenario is damaged: {e}"))
}

/// Saves the current scenario.
///
/// # Errors
/// A message when storage is unavailable or full.
pub fn save(s: &Scenario) -> Result<(), String> {
    let st = local().ok_or("local storage is not available")?;
    let text = serde_json::to_string(s).map_err(|e| e.to_string())?;
    st.set_item(CURRENT_KEY, &text).map_err(|_| "local storage is full or blocked".to_string())
}
