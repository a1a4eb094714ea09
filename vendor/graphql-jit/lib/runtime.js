"use strict";
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);
var runtime_exports = {};
__export(runtime_exports, {
  jitRuntime: () => jitRuntime
});
module.exports = __toCommonJS(runtime_exports);
function resolvePromise(ctx, promise, onSuccess, onError) {
  ++ctx.promiseCounter;
  promise.then(
    (result) => {
      onSuccess(result);
      --ctx.promiseCounter;
      if (ctx.promiseCounter === 0) ctx.resolve(ctx);
    },
    (err) => {
      onError(err);
      --ctx.promiseCounter;
      if (ctx.promiseCounter === 0) ctx.resolve(ctx);
    }
  );
}
const jitRuntime = {
  isPromise(value) {
    return value != null && typeof value === "object" && typeof value.then === "function";
  },
  checkNonNullLeaf(ctx, value, dest, nullMsg, locs, path, capStack, serialize, errHandler, ...parentIndexes) {
    const GQLError = ctx.GraphQLError;
    if (value == null) {
      dest.push(new GQLError(nullMsg, locs, path, void 0, capStack));
      return null;
    }
    if (value instanceof Error) {
      dest.push(
        new GQLError(value.message ?? value, locs, path, value, capStack)
      );
      return null;
    }
    return serialize(ctx, value, errHandler, ...parentIndexes);
  },
  checkNullableLeaf(ctx, value, dest, locs, path, capStack, serialize, errHandler, ...parentIndexes) {
    if (value == null) return null;
    const GQLError = ctx.GraphQLError;
    if (value instanceof Error) {
      dest.push(
        new GQLError(value.message ?? value, locs, path, value, capStack)
      );
      return null;
    }
    return serialize(ctx, value, errHandler, ...parentIndexes);
  },
  callResolver(ctx, call, onSuccess, onError) {
    let value;
    try {
      value = call();
    } catch (err) {
      onError(err);
      onSuccess(null);
      return;
    }
    this.handleResolverResult(ctx, value, onSuccess, onError);
  },
  handleResolverResult(ctx, value, onSuccess, onError) {
    if (this.isPromise(value)) {
      resolvePromise(ctx, value, onSuccess, onError);
    } else {
      onSuccess(value);
    }
  },
  handleListItemResult(ctx, item, onSuccess, onError) {
    if (this.isPromise(item)) {
      resolvePromise(ctx, item, onSuccess, onError);
    } else {
      onSuccess(item);
    }
  },
  finalizeResult(ctx) {
    if (ctx.promiseCounter > 0) {
      return new Promise((resolve) => {
        ctx.resolve = resolve;
      });
    }
    return void 0;
  },
  safeMap(ctx, iterable, cb, ...idx) {
    let index = 0;
    const result = [];
    for (const a of iterable) {
      cb(ctx, a, index, result, ...idx);
      ++index;
    }
    return result;
  }
};
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  jitRuntime
});
//# sourceMappingURL=runtime.js.map