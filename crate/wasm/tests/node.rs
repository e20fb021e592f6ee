//! Cross-target determinism: the wasm build, run under Node by `wasm-pack test --node`,
//! gives the digests the native build pinned in crate/sim/tests/golden/digests.json.

use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

const GOLDEN: &str = include_str!("../../sim/tests/golden/digests.json");

#[wasm_bindgen_test]
fn wasm_digests_equal_native_golden_digests() {
    let cases: Vec<serde_json::Value> = serde_json::from_str(GOLDEN).unwrap();
    assert!(cases.len() >= 10);
    for case in cases {
        let config = case["config"].to_string();
        let digest = hotrow_wasm::digest_of(&config).unwrap_or_else(|e| panic!("{config}: {e:?}"));
        assert_eq!(digest, case["digest"].as_str().unwrap(), "{config}");
    }
}

#[wasm_bindgen_test]
fn js_objects_convert_like_json() {
    // The same config as a JS object (through the binding's converter) and as JSON text.
    let text = r#"{"preset":"ndbapi-hidden-pk","seed":3,"durationMs":100,"warmupMs":10,"network":{"latencyUs":40}}"#;
    let obj = js_sys::JSON::parse(text).unwrap();
    let mut sim = hotrow_wasm::Simulation::new(obj).unwrap();
    sim.run_for(JsValue::from_f64(110.0), JsValue::UNDEFINED).unwrap();
    let summary = sim.summary().unwrap();
    let digest = js_sys::Reflect::get(&summary, &"digest".into()).unwrap().as_string().unwrap();
    assert_eq!(digest, hotrow_wasm::digest_of(text).unwrap());
}

#[wasm_bindgen_test]
fn bad_values_throw_named_errors() {
    for (text, field) in [
        (r#"{"cacheSize":0}"#, "cacheSize"),
        (r#"{"dataNodes":7}"#, "dataNodes"),
        (r#"{"network":{"latencyUs":"slow"}}"#, "network.latencyUs"),
        (r#"{"bogus":1}"#, "bogus"),
    ] {
        let err = hotrow_wasm::Simulation::new(js_sys::JSON::parse(text).unwrap()).err().expect(text);
        let got = js_sys::Reflect::get(&err, &"field".into()).unwrap().as_string().unwrap();
        assert_eq!(got, field, "{text}");
    }
    let nan = js_sys::Object::new();
    js_sys::Reflect::set(&nan, &"cacheSize".into(), &JsValue::from_f64(f64::NAN)).unwrap();
    assert!(hotrow_wasm::Simulation::new(nan.into()).is_err());
}
