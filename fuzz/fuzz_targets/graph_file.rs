//! Graph files of any bytes, in either format: read without a panic, and when read, solved
//! and reported for the start and every position without a panic, within a small memory limit;
//! a report over a tiny limit refused with the figure.
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
    // The answer's bytes are counted before it is built (audit 3, item 10): under a limit too
    // small for it, a refusal that names the limit, never a panic or a partial answer.
    if let Err(refused) = graph.report_within(&solution, None, true, 4 << 10) {
        assert!(refused.contains("raise --memory-limit"), "{refused}");
    }
    let report = graph
        .report(&solution, None, true)
        .expect("the start is in the graph");
    assert_eq!(
        report["values"].as_array().unwrap().len() as u64,
        graph.graph().positions()
    );
    // Every move listed leads to a position that is in the graph, once.
    for index in 0..graph.graph().positions() as u32 {
        let mut targets = graph.graph().targets(index).to_vec();
        let count = targets.len();
        targets.sort_unstable();
        targets.dedup();
        assert_eq!(targets.len(), count, "a move kept once");
    }
});
