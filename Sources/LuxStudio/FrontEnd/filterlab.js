// The filter lab: built-in filters with controls generated from their descriptions, a chain to reorder,
// before/after, export, and the equivalent `lux filter --chain` text.

const path = (name) => name.split("/").map(encodeURIComponent).join("/");
const format = (v) => Array.isArray(v) ? v.map((x) => +Number(x).toFixed(4)).join(",") : String(v);

export class FilterLab {
  constructor(root, onExport) {
    this.root = root;
    this.onExport = onExport;
    this.steps = [];
    this.$ = (id) => root.querySelector("#" + id);
    this.$("addFilter").addEventListener("click", () => this.add(this.$("filterName").value));
    this.$("labBefore").addEventListener("pointerdown", () => { this.$("labPreview").src = this.beforeURL ?? ""; });
    this.$("labBefore").addEventListener("pointerup", () => { this.$("labPreview").src = this.afterURL ?? ""; });
    this.$("labPreview").addEventListener("click", (event) => this.pick(event));
    for (const f of ["jpeg", "png", "tiff", "heic"]) this.$("lab-export-" + f).addEventListener("click", () => this.export(f));
  }

  async load() {
    if (this.filters) return;
    const response = await fetch("/api/filters");
    this.filters = new Map((await response.json()).map((f) => [f.name, f]));
    this.$("filterName").replaceChildren(...[...this.filters.values()].map((f) => new Option(f.displayName, f.name)));
  }

  async open(name) {
    await this.load();
    this.name = name;
    this.$("labName").textContent = name;
    this.beforeURL = `/api/thumbnail/${path(name)}?size=1024`;
    this.update();
  }

  add(filterName) {
    const filter = this.filters.get(filterName);
    const values = {};
    for (const p of filter.parameters) if (p.default !== undefined && p.default !== null) values[p.name] = p.default;
    this.steps.push({ filter, values });
    this.renderChain();
    this.update();
  }

  chainText() {
    return this.steps.map(({ filter, values }) =>
      [filter.name, ...Object.entries(values).map(([k, v]) => `${k}=${format(v)}`)].join(" ")).join(" | ");
  }

  renderChain() {
    const list = this.$("chain");
    list.replaceChildren(...this.steps.map((step, index) => this.stepElement(step, index)));
    this.$("chainText").textContent = this.steps.length ? `lux filter IN -o OUT --chain '${this.chainText()}'` : "";
  }

  stepElement(step, index) {
    const li = document.createElement("li");
    const title = document.createElement("strong");
    title.textContent = step.filter.displayName;
    const buttons = [["↑", -1], ["↓", 1]].map(([label, delta]) => {
      const b = Object.assign(document.createElement("button"), { textContent: label, type: "button" });
      b.addEventListener("click", () => this.move(index, delta));
      return b;
    });
    const remove = Object.assign(document.createElement("button"), { textContent: "✕", type: "button" });
    remove.addEventListener("click", () => { this.steps.splice(index, 1); this.renderChain(); this.update(); });
    li.append(title, " ", ...buttons, remove);
    for (const p of step.filter.parameters) li.append(this.control(step, p));
    return li;
  }

  control(step, p) {
    const label = document.createElement("label");
    label.title = p.summary;
    label.append(p.name);
    const set = (v) => { step.values[p.name] = v; this.renderChain(); this.update(); };
    let input;
    if (p.type === "number") {
      const [min, max] = p.range ?? [0, 100];
      input = Object.assign(document.createElement("input"), { type: "range", min, max, step: (max - min) / 200, value: step.values[p.name] ?? min });
      input.addEventListener("input", () => set(Number(input.value)));
    } else if (p.type === "boolean") {
      input = Object.assign(document.createElement("input"), { type: "checkbox", checked: !!step.values[p.name] });
      input.addEventListener("change", () => set(input.checked));
    } else if (p.type === "color") {
      const c = step.values[p.name] ?? [1, 1, 1, 1];
      const hex = "#" + c.slice(0, 3).map((x) => Math.round(Math.min(1, Math.max(0, x)) * 255).toString(16).padStart(2, "0")).join("");
      input = Object.assign(document.createElement("input"), { type: "color", value: hex });
      input.addEventListener("input", () => {
        const v = [1, 3, 5].map((i) => parseInt(input.value.slice(i, i + 2), 16) / 255);
        set([...v, c[3] ?? 1]);
      });
    } else if (p.type === "choice") {
      input = document.createElement("select");
      input.append(...p.choices.map((c) => new Option(c, c, false, c === step.values[p.name])));
      input.addEventListener("change", () => set(input.value));
    } else if (p.type === "point") {
      input = Object.assign(document.createElement("button"), { type: "button", textContent: `${format(step.values[p.name] ?? [0, 0])} — click the image` });
      input.addEventListener("click", () => { this.picking = { step, p }; });
    } else {
      input = Object.assign(document.createElement("input"), { type: "text", value: format(step.values[p.name] ?? "") });
      input.addEventListener("change", () => set(input.value));
    }
    label.append(input);
    return label;
  }

  // A point parameter takes the clicked pixel of the preview (Core Image coordinates: origin at the bottom left).
  pick(event) {
    if (!this.picking) return;
    const img = this.$("labPreview");
    const r = img.getBoundingClientRect();
    const x = (event.clientX - r.left) / r.width * img.naturalWidth;
    const y = (1 - (event.clientY - r.top) / r.height) * img.naturalHeight;
    this.picking.step.values[this.picking.p.name] = [Math.round(x), Math.round(y)];
    this.picking = null;
    this.renderChain();
    this.update();
  }

  move(index, delta) {
    const to = index + delta;
    if (to < 0 || to >= this.steps.length) return;
    [this.steps[index], this.steps[to]] = [this.steps[to], this.steps[index]];
    this.renderChain();
    this.update();
  }

  update() {
    if (!this.name) return;
    if (this.busy) { this.pending = true; return; }
    this.busy = true;
    const text = this.chainText();
    const request = text
      ? fetch(`/api/filter/${path(this.name)}?size=1024`, { method: "POST", body: text })
      : fetch(this.beforeURL);
    request.then(async (response) => {
      if (response.ok) {
        if (this.afterURL) URL.revokeObjectURL(this.afterURL);
        this.afterURL = URL.createObjectURL(await response.blob());
        this.$("labPreview").src = this.afterURL;
        this.$("labStatus").textContent = "";
      } else {
        this.$("labStatus").textContent = await response.text();
      }
      this.busy = false;
      if (this.pending) { this.pending = false; this.update(); }
    });
  }

  async export(format) {
    const response = await fetch(`/api/filter-export/${path(this.name)}?format=${format}`, { method: "POST", body: this.chainText() });
    this.$("labStatus").textContent = response.ok ? `exported ${(await response.json()).file}` : await response.text();
    if (response.ok) this.onExport();
  }
}
