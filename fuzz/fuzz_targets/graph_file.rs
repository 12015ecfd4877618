//! Graph files of any bytes, in either format: read without a panic, and when read, solved
//! and reported for the start and every position without a panic, within a small memory limit.
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play::engine::Options;
use perfect_play::graph::text::NamedGraph;

fuzz_target!(|data: &[u8]| {
    let Ok(graph) = NamedGraph::read(data, 16 << 20) else {
        return;
    };
    let options = Options {
        memory_limit: 16 << 20,
        threads: 1,
        ..Options::default()
    };
    let Ok(solution) = graph.solve(&options) else {
        return;
    };
    let report = graph.report(&solution, None, true).expect("the start is in the graph");
    assert_eq!(report["values"].as_array().unwrap().len() as u64, graph.graph().positions());
    // Every move listed leads to a position that is in the graph, once.
    for index in 0..graph.graph().positions() as u32 {
        let mut targets = graph.graph().targets(index).to_vec();
        let count = targets.len();
        targets.sort_unstable();
        targets.dedup();
        assert_eq!(targets.len(), count, "a move kept once");
    }
});
