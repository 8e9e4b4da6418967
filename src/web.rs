//! The only code that touches the browser: local storage, the URL, canvases.

pub mod canvas;
pub mod data;
pub mod files;
pub mod lazy;
pub mod panic;
pub mod storage;
pub mod trace;
pub mod url;
