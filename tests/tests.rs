//! Integration tests: run the real `treedd` binary with real oracles from fixtures/.
