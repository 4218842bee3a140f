# jacktap: `make demo` to see it work, `make test` to run every test. See README.md.
.PHONY: deps build demo test bench clean

deps:
	./scripts/install-dependencies

build: deps
	swift build -c release --product jacktap

demo: build
	.build/release/jacktap demo

test: deps
	swift test
	scripts/check-callback-calls

bench: deps
	Benchmarks/run

clean:
	rm -rf .build .build-*
