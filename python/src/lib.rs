//! # junqi-python
//!
//! The Python package `junqi` over the rules core (`junqi-core`) and the bots (`junqi-ai`),
//! built with PyO3 as the extension module `junqi._junqi` and packaged by maturin
//! (`pip install ./python`, an abi3 wheel for CPython 3.8 and later). The Python side
//! (`python/junqi/`) re-exports these classes and adds the PettingZoo, Gymnasium and OpenSpiel
//! wrappers (`docs/python.md`).
//!
//! - [`game::Game`]: one game (board, mode, options; from a seed, a JSON position or a record):
//!   legal actions as text and as ids, step, events, outcome, observations as the core's JSON
//!   and as numpy planes, records out.
//! - [`lsa::LsaGame`]: one game of 陆海空三军棋 (board `land_sea_air`) with the same names, and
//!   [`lsa::LsaBot`], its built-in players.
//! - [`vecenv::VecEnv`]: a batch of games stepped in Rust, numpy in and out.
//! - [`bots::Bot`] and [`bots::arena`]: the built-in bots, and the arena with a Python policy.
//! - [`planes`]: the fixed action-id space of a board and the observation planes.
//!
//! ## Why a workspace of its own
//!
//! This crate is not a member of the root workspace (it has its own `[workspace]` and
//! `Cargo.lock`). A PyO3 extension module must not link libpython (the `extension-module`
//! feature, which maturin turns on) while a test binary must; keeping the crate out of the root
//! workspace means `cargo test --workspace` and `cargo clippy --workspace` never build it and
//! need no Python at all. `scripts/test` checks it separately: `cargo fmt`, `cargo clippy` on
//! this manifest, then `pip install ./python` and the pytest suite.

#![warn(missing_docs)]

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde_json::Value;

pub mod bots;
pub mod game;
pub mod lsa;
pub mod planes;
pub mod vecenv;

create_exception!(
    _junqi,
    JunqiError,
    PyValueError,
    "A bad argument: an unknown board, mode or option, unreadable JSON, a bad record or action text."
);
create_exception!(
    _junqi,
    IllegalActionError,
    JunqiError,
    "The referee refused an action; nothing changed. `code` is the stable reason code (e.g. `action.cannot_move`), `details` its data."
);

/// A [`JunqiError`] with this message.
pub(crate) fn bad(msg: impl Into<String>) -> PyErr {
    JunqiError::new_err(msg.into())
}

/// An [`IllegalActionError`] for a refused action.
pub(crate) fn illegal(py: Python<'_>, text: &str, e: &junqi_core::IllegalAction) -> PyErr {
    let err = IllegalActionError::new_err(format!("illegal action {text}: {e}"));
    let v = err.value(py);
    let _ = v.setattr("code", e.code());
    let _ = v.setattr("details", to_py(py, &Value::Object(e.args())));
    err
}

/// A JSON value as Python objects (dict, list, str, int, float, bool, None).
pub(crate) fn to_py(py: Python<'_>, v: &Value) -> PyObject {
    match v {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py).unwrap().to_owned().into_any().unbind(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py).unwrap().into_any().unbind()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py).unwrap().into_any().unbind()
            } else {
                n.as_f64()
                    .unwrap_or(f64::NAN)
                    .into_pyobject(py)
                    .unwrap()
                    .into_any()
                    .unbind()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any().unbind(),
        Value::Array(a) => {
            let items: Vec<PyObject> = a.iter().map(|x| to_py(py, x)).collect();
            PyList::new(py, items).unwrap().into_any().unbind()
        }
        Value::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(k, to_py(py, x)).unwrap();
            }
            d.into_any().unbind()
        }
    }
}

/// A JSON value from a Python object: a `str` is parsed as JSON text, anything else (dict,
/// list, numbers …) goes through Python's `json.dumps`.
pub(crate) fn json_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    let text: String = if let Ok(s) = obj.downcast::<PyString>() {
        s.to_cow()?.to_string()
    } else {
        let json = obj.py().import("json")?;
        json.call_method1("dumps", (obj,))
            .map_err(|e| bad(format!("{what}: not JSON-serialisable: {e}")))?
            .extract()?
    };
    serde_json::from_str(&text).map_err(|e| bad(format!("{what}: not JSON: {e}")))
}

/// The options argument (a dict, a JSON string or None) as JSON, with `preset` put in it (the
/// options' readers start from a preset they name; a different `"preset"` in the options is an
/// error), as the command line's `--options` and `--preset` give them.
pub(crate) fn options_arg(
    options: Option<&Bound<'_, PyAny>>,
    preset: Option<&str>,
) -> PyResult<Option<serde_json::Value>> {
    let opts = match options {
        Some(o) if !o.is_none() => Some(json_arg(o, "options")?),
        _ => None,
    };
    let Some(preset) = preset else {
        return Ok(opts);
    };
    junqi_core::preset::with_preset(opts.as_ref(), preset)
        .map(Some)
        .map_err(bad)
}

/// The rules from a board, a mode, options (a dict, a JSON string or None) and a preset (RULES
/// §10.1), as the command line's `--board`, `--mode`, `--options` and `--preset` give them.
pub(crate) fn parse_rules(
    board: &str,
    mode: &str,
    options: Option<&Bound<'_, PyAny>>,
    preset: Option<&str>,
) -> PyResult<junqi_core::Rules> {
    if board == junqi_core::lsa::board::BOARD_NAME {
        return Err(bad(
            "the land_sea_air board has its own game class: junqi.LsaGame(mode=..., options=..., seed=...)",
        ));
    }
    let b: junqi_core::BoardKind = board.parse().map_err(bad)?;
    let m: junqi_core::Mode = mode.parse().map_err(bad)?;
    let opts = options_arg(options, preset)?;
    let o = junqi_core::Options::from_json(b, m, opts.as_ref()).map_err(bad)?;
    junqi_core::Rules::new(b, m, o).map_err(bad)
}

/// The size of the action-id space of a board (`n·n + n` for `n` squares).
#[pyfunction]
fn action_space_size(board: &str) -> PyResult<usize> {
    let rules = parse_rules(board, "dark", None, None)?;
    Ok(planes::action_count(
        junqi_core::Position::empty(rules).topology().len(),
    ))
}

/// The square names of a board in square order (the columns of the planes).
#[pyfunction]
fn square_names(board: &str) -> PyResult<Vec<String>> {
    let rules = parse_rules(board, "dark", None, None)?;
    let t = junqi_core::Position::empty(rules).topology();
    Ok(t.squares().map(|s| t.name(s).to_string()).collect())
}

/// The names of the observation planes of a board, in order.
#[pyfunction]
fn plane_names(board: &str) -> PyResult<Vec<String>> {
    let b: junqi_core::BoardKind = board.parse().map_err(bad)?;
    Ok(planes::plane_names(b.seats()))
}

/// The names of the built-in bots.
#[pyfunction]
fn bot_names() -> Vec<&'static str> {
    junqi_ai::registry::bot_names()
}

/// The extension module `junqi._junqi`.
#[pymodule]
fn _junqi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("JunqiError", m.py().get_type::<JunqiError>())?;
    m.add(
        "IllegalActionError",
        m.py().get_type::<IllegalActionError>(),
    )?;
    m.add_class::<game::Game>()?;
    m.add_class::<lsa::LsaGame>()?;
    m.add_class::<lsa::LsaBot>()?;
    m.add_class::<vecenv::VecEnv>()?;
    m.add_class::<bots::Bot>()?;
    m.add_function(wrap_pyfunction!(bots::arena, m)?)?;
    m.add_function(wrap_pyfunction!(action_space_size, m)?)?;
    m.add_function(wrap_pyfunction!(square_names, m)?)?;
    m.add_function(wrap_pyfunction!(plane_names, m)?)?;
    m.add_function(wrap_pyfunction!(bot_names, m)?)?;
    Ok(())
}
