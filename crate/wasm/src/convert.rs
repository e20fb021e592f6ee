//! Between JavaScript values and the core's types: config errors as exceptions, JSON
//! from JavaScript values, argument checks, and plain objects built field by field.

use hotrow::decimal::Shortest;
use hotrow::ConfigError;
use js_sys::{Array, Float64Array, Object, Reflect};
use serde::Serialize;
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

/// A `ConfigError` as a JavaScript exception with a `field` property.
pub(crate) fn config_error(e: ConfigError) -> JsValue {
    let msg = e.to_string();
    let err: JsValue = if e.allowed.starts_with("must be an integer from") || e.allowed.contains("multiple of") {
        js_sys::RangeError::new(&msg).into()
    } else {
        js_sys::Error::new(&msg).into()
    };
    let _ = Reflect::set(&err, &"field".into(), &e.field.into());
    err
}

pub(crate) fn bad(field: &str, value: impl ToString, allowed: &str) -> ConfigError {
    ConfigError { field: field.to_string(), value: value.to_string(), allowed: allowed.to_string() }
}

pub(crate) fn describe(v: &JsValue) -> String {
    if let Some(n) = v.as_f64() {
        return hotrow::decimal::shortest(n);
    }
    if v.is_undefined() {
        return "undefined".into();
    }
    js_sys::JSON::stringify(v).ok().and_then(|s| s.as_string()).unwrap_or_else(|| format!("{:?}", v.js_typeof()))
}

/// Converts a JavaScript value to JSON, refusing what JSON cannot hold (NaN, infinities,
/// BigInt, functions, symbols) with the path of the offending field. `undefined` object
/// fields are left out, as `JSON.stringify` does.
pub(crate) fn js_to_json(v: &JsValue, path: &str) -> Result<Value, ConfigError> {
    let field = if path.is_empty() { "(config)" } else { path };
    if v.is_null() {
        return Ok(Value::Null);
    }
    if let Some(b) = v.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Some(n) = v.as_f64() {
        if !n.is_finite() {
            return Err(bad(field, describe(v), "must be a finite number"));
        }
        if n.fract() == 0.0 && n.abs() <= 9_007_199_254_740_992.0 {
            return Ok(if n >= 0.0 { Value::from(n as u64) } else { Value::from(n as i64) });
        }
        return Ok(serde_json::Number::from_f64(n).map(Value::Number).expect("finite"));
    }
    if let Some(s) = v.as_string() {
        return Ok(Value::String(s));
    }
    if Array::is_array(v) {
        let a: &Array = v.unchecked_ref();
        return a.iter().enumerate().map(|(i, x)| js_to_json(&x, &format!("{field}[{i}]"))).collect();
    }
    if v.is_object() && !v.is_function() {
        let mut m = Map::new();
        for key in Object::keys(v.unchecked_ref::<Object>()).iter() {
            let k = key.as_string().unwrap_or_default();
            let x = Reflect::get(v, &key).unwrap_or(JsValue::UNDEFINED);
            if x.is_undefined() {
                continue;
            }
            let name = if k.is_empty() { "(empty name)" } else { k.as_str() };
            let sub = if path.is_empty() { name.to_string() } else { format!("{path}.{name}") };
            m.insert(k, js_to_json(&x, &sub)?);
        }
        return Ok(Value::Object(m));
    }
    let kind = v.js_typeof().as_string().unwrap_or_default();
    Err(bad(field, describe(v), &format!("must be a number, string, boolean, object or array, not a {kind}")))
}

/// A count argument: a whole number in `lo..=hi`.
pub(crate) fn count(v: &JsValue, name: &str, lo: f64, hi: f64) -> Result<u64, JsValue> {
    match v.as_f64() {
        Some(n) if n.is_finite() && n.fract() == 0.0 && (lo..=hi).contains(&n) => Ok(n as u64),
        _ => Err(config_error(bad(name, describe(v), &format!("must be an integer from {} to {}", Shortest(lo), Shortest(hi))))),
    }
}

/// A duration argument in milliseconds: a finite number in `0..=hi`.
pub(crate) fn millis(v: &JsValue, name: &str, hi: f64) -> Result<f64, JsValue> {
    match v.as_f64() {
        Some(n) if n.is_finite() && (0.0..=hi).contains(&n) => Ok(n),
        _ => Err(config_error(bad(name, describe(v), &format!("must be a number of milliseconds from 0 to {}", Shortest(hi))))),
    }
}

/// Builds plain objects field by field.
pub(crate) struct Obj(Object);

impl Obj {
    pub(crate) fn new() -> Obj {
        Obj(Object::new())
    }
    pub(crate) fn set(&self, k: &str, v: impl Into<JsValue>) -> &Obj {
        let _ = Reflect::set(&self.0, &k.into(), &v.into());
        self
    }
    pub(crate) fn done(&self) -> JsValue {
        self.0.clone().into()
    }
}

pub(crate) fn f64s(values: impl Iterator<Item = f64>) -> Float64Array {
    let v: Vec<f64> = values.collect();
    Float64Array::from(&v[..])
}

/// A value as JavaScript sees its JSON (`JSON.parse` of serde_json's text: one serialiser
/// for the CLI's `--json` and the package, and 2 KB less module than a serialiser of
/// JavaScript values of its own). A non-finite number is `null`, as in `JSON.stringify`.
pub(crate) fn to_js<T: Serialize>(v: &T) -> JsValue {
    let text = serde_json::to_string(v).expect("plain data serialises");
    js_sys::JSON::parse(&text).expect("JSON parses")
}
