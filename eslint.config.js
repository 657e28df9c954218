// Lint rules. The consensus core, the driver and the lock state machine must be
// deterministic: the simulator replays one seed exactly only if these modules take
// time, randomness and I/O from outside. The rules below enforce that.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const nodeIoModules = [
  "fs",
  "fs/promises",
  "net",
  "dgram",
  "http",
  "https",
  "http2",
  "child_process",
  "cluster",
  "worker_threads",
  "dns",
  "tls",
  "os",
  "crypto",
  "perf_hooks",
  "timers",
  "timers/promises",
  "readline",
  "process",
  "v8",
  "vm",
];
const restrictedImports = [
  ...nodeIoModules,
  ...nodeIoModules.map((m) => `node:${m}`),
  "level",
  "classic-level",
  "@grpc/grpc-js",
  "pino",
].map((name) => ({
  name,
  message: "deterministic modules take I/O, time and randomness from outside",
}));

// The client library and the node share only the contract in proto/: neither imports the other.
const notClient = {
  regex: "(^|/)client/",
  message: "node code does not import the client library; shared contract code lives in proto/",
};
const notNode = {
  regex: "(^|/)node/",
  message: "the client library does not import node code; shared contract code lives in proto/",
};
// What ships or runs as a tool never depends on test code: shared checkers live in verify/.
const notTest = {
  regex: "^(\\.\\./)+test/",
  message: "only tests import test/; checkers shared with chaos live in verify/",
};

/** The platform's clocks and timers, which code run in virtual time must not touch. */
const CLOCK_GLOBALS = [
  "Date",
  "performance",
  "setTimeout",
  "setInterval",
  "setImmediate",
  "clearTimeout",
  "clearInterval",
  "clearImmediate",
];

const deterministic = {
  files: ["node/raft/**/*.ts", "node/lock/**/*.ts", "node/host/**/*.ts"],
  rules: {
    "no-restricted-globals": [
      "error",
      ...[
        ...CLOCK_GLOBALS,
        "queueMicrotask",
        "process",
        "crypto",
        "require",
        "fetch",
        "Buffer",
      ].map((name) => ({ name, message: `${name} is not deterministic or is I/O; inject it` })),
    ],
    "no-restricted-properties": [
      "error",
      { object: "Math", property: "random", message: "use the injected random source" },
      { object: "process", property: "hrtime", message: "use the injected clock" },
      { object: "crypto", property: "randomUUID", message: "use the injected random source" },
      { object: "crypto", property: "getRandomValues", message: "use the injected random source" },
      { object: "globalThis", property: "setTimeout", message: "use the injected clock" },
      { object: "globalThis", property: "Date", message: "use the injected clock" },
    ],
    "no-restricted-imports": [
      "error",
      {
        paths: restrictedImports,
        patterns: [
          { group: ["node:*"], message: "no Node modules in deterministic code" },
          notClient,
          notTest,
        ],
      },
    ],
  },
};

// The client's session, acknowledgements, lock handle and stall watch read time only from
// the clock they are given (client/clock.ts), so a simulator can run them in virtual time.
const clientVirtualTime = {
  files: ["client/session.ts", "client/acks.ts", "client/lock-handle.ts", "client/stall-watch.ts"],
  rules: {
    "no-restricted-globals": [
      "error",
      ...CLOCK_GLOBALS.map((name) => ({
        name,
        message: `${name}: use the injected ClientClock`,
      })),
    ],
    "no-restricted-properties": [
      "error",
      { object: "process", property: "hrtime", message: "use the injected ClientClock" },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      "proto/gen/**",
      "data/**",
      "dist/**",
      ".dist-build-*/**",
      "coverage/**",
      ".scratch/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: "readonly",
        process: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        setImmediate: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        structuredClone: "readonly",
        queueMicrotask: "readonly",
        performance: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "no-constant-condition": ["error", { checkLoops: false }],
    },
  },
  {
    files: [
      "proto/**/*.ts",
      "verify/**/*.ts",
      "chaos/**/*.ts",
      "bench/**/*.ts",
      "scripts/**/*.ts",
      "cluster-config/**/*.ts",
    ],
    rules: { "no-restricted-imports": ["error", { patterns: [notTest] }] },
  },
  {
    files: ["node/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [notClient, notTest] }] },
  },
  {
    files: ["client/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [notNode, notTest] }] },
  },
  deterministic,
  clientVirtualTime,
);
