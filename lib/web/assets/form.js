// @ts-check
/// <reference lib="dom" />
// A form generated from a tool's JSON Schema: strings, numbers, integers,
// booleans, enums, arrays and nested objects, with required marks,
// descriptions and defaults. What the form cannot express (anyOf, mixed
// types, free-form objects) gets a JSON box of its own; the page's raw JSON
// editor covers the rest. A field left empty is left out of the arguments;
// a required one left empty is a problem the form marks on the field.

import { h, isObject } from "./dom.js";

/** @import { Child, Props } from "./dom.js" */

/**
 * A node of a JSON Schema: every key is checked where it is read.
 * @typedef {Record<string, any>} Schema
 */

/**
 * Where a field stands in the form.
 * @typedef {object} FieldContext
 * @property {Schema} root The whole schema, for `$ref`s.
 * @property {string} name The field's label (`""` for the top).
 * @property {string} path Its dotted path in the arguments.
 * @property {boolean} required Whether the arguments need it.
 * @property {number} depth How deep it is nested.
 */

/**
 * A field with a problem, as a check finds it.
 * @typedef {object} Problem
 * @property {string} message What the page lists.
 * @property {string} note What goes under the field.
 * @property {HTMLElement} control The control to mark.
 * @property {boolean} missing Whether a required value is missing.
 */

/**
 * One field of the form: its element, and its value in and out.
 * @typedef {object} Field
 * @property {HTMLElement} element
 * @property {(problems: Problem[]) => unknown} get The value; `undefined`: not set.
 * @property {(value: unknown) => void} set
 */

/**
 * A form made by {@linkcode createForm}.
 * @typedef {object} Form
 * @property {HTMLElement} element
 * @property {() => { value: Record<string, unknown>, errors: string[] }} read
 * @property {() => { value: Record<string, unknown>, errors: string[] }} check
 * @property {(value: unknown) => void} write
 */

let nextId = 0;
const LONG_TEXT = new Set([
  "content",
  "text",
  "file_text",
  "body",
  "old_str",
  "new_str",
  "insert_text",
  "notes",
  "description",
]);

/**
 * Follows a local `$ref` (`#/$defs/x`) in `root`; gives up after 16 hops.
 * @param {unknown} schema
 * @param {Schema} root
 * @returns {unknown}
 */
function deref(schema, root) {
  let current = schema;
  for (let hop = 0; hop < 16 && isObject(current); hop++) {
    const ref = current.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#")) return current;
    /** @type {unknown} */
    let target = root;
    for (const part of ref.slice(1).split("/").filter(Boolean)) {
      const key = decodeURIComponent(part).replaceAll("~1", "/")
        .replaceAll("~0", "~");
      target = isObject(target) ? target[key] : undefined;
    }
    if (!isObject(target)) return undefined;
    const { $ref: _ref, ...rest } = current;
    current = { ...target, ...rest };
  }
  return current;
}

/**
 * The one type a schema node has, or `undefined` when it has several.
 * @param {Schema} schema
 * @returns {unknown}
 */
function typeOf(schema) {
  let type = schema.type;
  if (Array.isArray(type)) {
    const real = type.filter((/** @type {unknown} */ t) => t !== "null");
    type = real.length === 1 ? real[0] : undefined;
  }
  if (type === undefined && isObject(schema.properties)) return "object";
  if (type === undefined && schema.items !== undefined) return "array";
  return type;
}

/**
 * A field's frame: its label, its control and its hint.
 * @param {FieldContext} ctx
 * @param {unknown} schema
 * @param {HTMLElement} control
 * @param {{ fieldset?: boolean }} [options]
 * @returns {HTMLElement}
 */
function shell(ctx, schema, control, { fieldset = false } = {}) {
  const label = ctx.name === "" ? null : [
    ctx.name,
    ctx.required ? h("span", { class: "req", title: "required" }, " *") : null,
  ];
  const hint = isObject(schema) && typeof schema.description === "string"
    ? h("small", { class: "hint" }, schema.description)
    : null;
  if (fieldset) {
    return h(
      "fieldset",
      { class: "field object", dataset: { path: ctx.path } },
      label ? h("legend", null, label) : null,
      hint,
      control,
    );
  }
  return h(
    "div",
    { class: "field", dataset: { field: ctx.path } },
    label ? h("label", { for: control.id }, label) : null,
    control,
    hint,
  );
}

/**
 * A control of the form, with an id of its own.
 * @template {"input" | "select" | "textarea"} K
 * @param {K} tag
 * @param {FieldContext} ctx
 * @param {Props} [props]
 * @returns {HTMLElementTagNameMap[K]}
 */
function control(tag, ctx, props = {}) {
  return h(tag, {
    id: `f${++nextId}`,
    dataset: { path: ctx.path },
    "aria-required": ctx.required ? "true" : null,
    ...props,
  });
}

/**
 * Notes that the field of `control` has a problem: it `is` (`required`,
 * `not a number`), and `fix` says what to do. The page lists
 * `"<path>" is <is>: <fix>` and writes `<Is>: <fix>` under the field.
 */
/**
 * @param {Problem[]} problems
 * @param {FieldContext} ctx
 * @param {HTMLElement} control
 * @param {string} is
 * @param {string} fix
 * @returns {undefined}
 */
function problem(problems, ctx, control, is, fix) {
  problems.push({
    message: `"${ctx.path}" is ${is}: ${fix}`,
    note: `${is[0].toUpperCase()}${is.slice(1)}: ${fix}`,
    control,
    missing: is === "required",
  });
  return undefined;
}

/**
 * @param {unknown} schema
 * @param {FieldContext} ctx
 * @returns {Field}
 */
function jsonField(schema, ctx) {
  const box = control("textarea", ctx, {
    rows: 3,
    class: "json-input",
    placeholder: "a JSON value",
  });
  /** @type {Field} */
  const field = {
    element: shell(ctx, schema, box),
    get(problems) {
      if (box.value.trim() === "") {
        return ctx.required
          ? problem(problems, ctx, box, "required", "enter a JSON value")
          : undefined;
      }
      try {
        return JSON.parse(box.value);
      } catch {
        return problem(problems, ctx, box, "not valid JSON", "correct it");
      }
    },
    set(value) {
      box.value = value === undefined ? "" : JSON.stringify(value, null, 2);
    },
  };
  if (isObject(schema) && schema.default !== undefined) {
    field.set(schema.default);
  }
  return field;
}

/**
 * @param {Schema} schema
 * @param {FieldContext} ctx
 * @returns {Field}
 */
function enumField(schema, ctx) {
  /** @type {unknown[]} */
  const values = schema.enum;
  const select = control("select", ctx);
  if (!ctx.required || schema.default === undefined) {
    select.append(h("option", { value: "" }, "(not set)"));
  }
  values.forEach((value, index) =>
    select.append(
      h(
        "option",
        { value: String(index) },
        typeof value === "string" ? value : JSON.stringify(value),
      ),
    )
  );
  /** @type {Field} */
  const field = {
    element: shell(ctx, schema, select),
    get(problems) {
      if (select.value !== "") return values[Number(select.value)];
      return ctx.required
        ? problem(problems, ctx, select, "required", "choose a value")
        : undefined;
    },
    set(value) {
      const index = values.findIndex((v) =>
        JSON.stringify(v) === JSON.stringify(value)
      );
      select.value = index === -1 ? "" : String(index);
    },
  };
  if (schema.default !== undefined) field.set(schema.default);
  return field;
}

/**
 * @param {Schema} schema
 * @param {FieldContext} ctx
 * @returns {Field}
 */
function stringField(schema, ctx) {
  const long = LONG_TEXT.has(ctx.name) ||
    (typeof schema.maxLength === "number" && schema.maxLength > 200);
  const input = long
    ? control("textarea", ctx, { rows: 4 })
    : control("input", ctx, { type: "text" });
  if (
    Array.isArray(schema.examples) && typeof schema.examples[0] === "string"
  ) {
    input.placeholder = schema.examples[0];
  }
  /** @type {Field} */
  const field = {
    element: shell(ctx, schema, input),
    // Empty is "not set", unless the field is required and the schema
    // accepts the empty string in so many words (`minLength: 0`).
    get(problems) {
      if (input.value !== "") return input.value;
      if (!ctx.required) return undefined;
      return schema.minLength === 0
        ? ""
        : problem(problems, ctx, input, "required", "fill it in");
    },
    set(value) {
      input.value = value === undefined || value === null ? "" : String(value);
    },
  };
  if (typeof schema.default === "string") field.set(schema.default);
  return field;
}

/**
 * @param {Schema} schema
 * @param {FieldContext} ctx
 * @param {boolean} integer
 * @returns {Field}
 */
function numberField(schema, ctx, integer) {
  const input = control("input", ctx, {
    type: "number",
    step: integer ? "1" : "any",
    min: schema.minimum,
    max: schema.maximum,
  });
  /** @type {Field} */
  const field = {
    element: shell(ctx, schema, input),
    get(problems) {
      const text = input.value.trim();
      if (
        input.validity?.badInput ||
        (text !== "" && !Number.isFinite(Number(text)))
      ) {
        return problem(problems, ctx, input, "not a number", "enter digits");
      }
      if (text === "") {
        return ctx.required
          ? problem(problems, ctx, input, "required", "enter a number")
          : undefined;
      }
      const value = Number(text);
      if (integer && !Number.isInteger(value)) {
        return problem(
          problems,
          ctx,
          input,
          "not a whole number",
          "leave out the fraction",
        );
      }
      return value;
    },
    set(value) {
      input.value = typeof value === "number" ? String(value) : "";
    },
  };
  if (typeof schema.default === "number") field.set(schema.default);
  return field;
}

/**
 * @param {Schema} schema
 * @param {FieldContext} ctx
 * @returns {Field}
 */
function booleanField(schema, ctx) {
  if (ctx.required) {
    const box = control("input", ctx, { type: "checkbox" });
    /** @type {Field} */
    const field = {
      element: shell(ctx, schema, box),
      get: () => box.checked,
      set(value) {
        box.checked = value === true;
      },
    };
    field.set(schema.default);
    return field;
  }
  const select = control(
    "select",
    ctx,
    {},
  );
  select.append(
    h("option", { value: "" }, "(not set)"),
    h("option", { value: "true" }, "true"),
    h("option", { value: "false" }, "false"),
  );
  /** @type {Field} */
  const field = {
    element: shell(ctx, schema, select),
    get: () => select.value === "" ? undefined : select.value === "true",
    set(value) {
      select.value = typeof value === "boolean" ? String(value) : "";
    },
  };
  field.set(schema.default);
  return field;
}

/**
 * @param {Schema} schema
 * @param {FieldContext} ctx
 * @returns {Field & { names: string[] }}
 */
function objectField(schema, ctx) {
  const required = new Set(
    Array.isArray(schema.required) ? schema.required : [],
  );
  const children = Object.entries(schema.properties).map(([name, child]) => ({
    name,
    field: fieldFor(child, {
      root: ctx.root,
      name,
      path: ctx.path === "" ? name : `${ctx.path}.${name}`,
      required: required.has(name),
      depth: ctx.depth + 1,
    }),
  }));
  const body = h(
    "div",
    { class: "fields" },
    children.map((c) => c.field.element),
  );
  return {
    element: ctx.path === ""
      ? body
      : shell(ctx, schema, body, { fieldset: true }),
    // An optional object left wholly empty is left out, and its required
    // fields need no value then.
    get(problems) {
      /** @type {Record<string, unknown>} */
      const value = {};
      /** @type {Problem[]} */
      const own = [];
      for (const { name, field } of children) {
        const item = field.get(own);
        if (item !== undefined) value[name] = item;
      }
      const empty = Object.keys(value).length === 0 && !ctx.required;
      problems.push(...own.filter((p) => !(empty && p.missing)));
      return empty ? undefined : value;
    },
    set(value) {
      const source = isObject(value) ? value : {};
      for (const { name, field } of children) field.set(source[name]);
    },
    names: children.map((c) => c.name),
  };
}

/**
 * @param {Schema} schema
 * @param {FieldContext} ctx
 * @returns {Field}
 */
function arrayField(schema, ctx) {
  /** @type {{ field: Field, element: HTMLElement }[]} */
  const rows = [];
  const list = h("ol", { class: "rows" });
  const itemSchema = schema.items;
  /** @param {unknown} value */
  const addRow = (value) => {
    const index = rows.length;
    const field = fieldFor(itemSchema, {
      root: ctx.root,
      name: `${ctx.name}[${index + 1}]`,
      path: `${ctx.path}.${index}`,
      required: true,
      depth: ctx.depth + 1,
    });
    if (value !== undefined) field.set(value);
    const row = {
      field,
      element: h(
        "li",
        null,
        field.element,
        h("button", {
          type: "button",
          class: "remove",
          dataset: { remove: `${ctx.path}.${index}` },
          on: {
            click: () => {
              rows.splice(rows.indexOf(row), 1);
              row.element.remove();
            },
          },
        }, "Remove"),
      ),
    };
    rows.push(row);
    list.append(row.element);
  };
  const add = h("button", {
    type: "button",
    class: "add",
    dataset: { add: ctx.path },
    on: { click: () => addRow(undefined) },
  }, `Add ${ctx.name}`);
  /** @type {Field} */
  const field = {
    element: shell(ctx, schema, h("div", { class: "array" }, list, add), {
      fieldset: true,
    }),
    get(problems) {
      /** @type {unknown[]} */
      const value = [];
      for (const row of rows) {
        const item = row.field.get(problems);
        if (item !== undefined) value.push(item);
      }
      return value.length === 0 && !ctx.required ? undefined : value;
    },
    set(value) {
      rows.splice(0).forEach((row) => row.element.remove());
      if (Array.isArray(value)) value.forEach(addRow);
    },
  };
  if (Array.isArray(schema.default)) field.set(schema.default);
  return field;
}

/**
 * The field for schema node `raw`, by its type.
 * @param {unknown} raw
 * @param {FieldContext} ctx
 * @returns {Field}
 */
function fieldFor(raw, ctx) {
  const schema = deref(raw, ctx.root);
  if (!isObject(schema) || ctx.depth > 12) return jsonField(schema, ctx);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return enumField(schema, ctx);
  }
  switch (typeOf(schema)) {
    case "string":
      return stringField(schema, ctx);
    case "number":
      return numberField(schema, ctx, false);
    case "integer":
      return numberField(schema, ctx, true);
    case "boolean":
      return booleanField(schema, ctx);
    case "object":
      return isObject(schema.properties)
        ? objectField(schema, ctx)
        : jsonField(schema, ctx);
    case "array":
      return isObject(deref(schema.items, ctx.root))
        ? arrayField(schema, ctx)
        : jsonField(schema, ctx);
    default:
      return jsonField(schema, ctx);
  }
}

/**
 * Takes the mark of a check off `field` (a `.field` element).
 * @param {Element} field
 */
function clearMark(field) {
  field.classList.remove("invalid");
  field.querySelector(":scope > .field-error")?.remove();
  for (const control of field.querySelectorAll(":scope > [aria-invalid]")) {
    control.removeAttribute("aria-invalid");
    control.removeAttribute("aria-describedby");
  }
}

/**
 * Marks each field with a problem, says what it is under the field (until
 * the field is edited) and puts the cursor in the first one; the marks of
 * an earlier check on `element` go.
 */
/**
 * @param {HTMLElement} element
 * @param {Problem[]} problems
 */
function mark(element, problems) {
  for (const field of element.querySelectorAll(".invalid")) clearMark(field);
  for (const { control, note } of problems) {
    // Every control is in a `.field`, which `shell` made.
    const field = /** @type {Element} */ (control.closest(".field"));
    const id = `${control.id}-error`;
    field.classList.add("invalid");
    control.setAttribute("aria-invalid", "true");
    control.setAttribute("aria-describedby", id);
    field.append(h("small", { id, class: "field-error error" }, note));
    control.addEventListener("input", () => clearMark(field), { once: true });
  }
  problems[0]?.control.focus();
}

/**
 * A form for a tool's `parameters`: `element` to show; `read()` giving
 * `{ value, errors }`; `check()`, the same, marking each field in error on
 * the form; `write(value)` filling it from arguments. Keys the form has no
 * field for survive a write and a read.
 */
/**
 * @param {unknown} parameters
 * @returns {Form}
 */
export function createForm(parameters) {
  const root = isObject(parameters) ? parameters : {};
  const schema = deref(root, root);
  const top = isObject(schema) && isObject(schema.properties)
    ? objectField(schema, {
      root,
      name: "",
      path: "",
      required: true,
      depth: 0,
    })
    : null;
  /** @type {Record<string, unknown>} */
  let extra = {};
  const element = top?.element ??
    h(
      "p",
      { class: "note" },
      "This tool takes no named arguments: use the JSON editor.",
    );
  const collect = () => {
    /** @type {Problem[]} */
    const problems = [];
    const value = { ...extra, ...(top?.get(problems) ?? {}) };
    return { value, problems };
  };
  return {
    element,
    read() {
      const { value, problems } = collect();
      return { value, errors: problems.map((p) => p.message) };
    },
    check() {
      const { value, problems } = collect();
      mark(element, problems);
      return { value, errors: problems.map((p) => p.message) };
    },
    write(value) {
      const source = isObject(value) ? value : {};
      top?.set(source);
      extra = {};
      for (const [key, item] of Object.entries(source)) {
        if (!top?.names.includes(key)) extra[key] = item;
      }
    },
  };
}
