// Node, CommonJS: require('wasmjson') gives the ES module entry itself (dist/node.cjs is
// `module.exports = require('./node.mjs')`, written by scripts/build-js.mjs; Node loads
// an ES module without top-level await by require() from 20.19 and 22.12 on). One copy
// per program: a program (or its dependencies) that both imports and requires the
// package gets one codec, one init() and one set of classes. Where require() cannot load
// it (older Node, Jest's module loader), node.cjs falls back to the same entry built as
// CommonJS (dist/node-commonjs.cjs). This file only gives the CommonJS declarations
// (node-cjs.d.cts) their exports.
export * from './node-esm.js';
