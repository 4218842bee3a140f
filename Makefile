# jacktap: `make demo` to see it work, `make test` to run every test. See README.md.
.PHONY: deps build demo test bench clean

deps:
	./scripts/install-dependencies

build: deps
	swift build -c release --product jacktap

demo: build
	.build/release/jacktap demo

# The compliance tests play 885 s of EBU test signals six times: they run the release build.
test: deps
	swift build -c release --product jacktap
	JACKTAP_BIN="$$(swift build -c release --show-bin-path)/jacktap" swift test
	scripts/check-callback-calls

bench: deps
	Benchmarks/run

clean:
	rm -rf .build .build-*
