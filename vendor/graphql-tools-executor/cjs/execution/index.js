"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const tslib_1 = require("tslib");
tslib_1.__exportStar(require("./execute.js"), exports);
tslib_1.__exportStar(require("./values.js"), exports);
tslib_1.__exportStar(require("./normalizedExecutor.js"), exports);
