// The RAW developer panel: one slider per RAW control, a preview re-rendered on each change (the newest change
// wins), a histogram, before/after, and the full-size export.

const CONTROLS = [
  ["exposure", "Exposure (EV)", -5, 5, 0.05, 0],
  ["neutralTemperature", "Temperature (K)", 2000, 12000, 50, 5003],
  ["neutralTint", "Tint", -150, 150, 1, 0],
  ["contrastAmount", "Contrast", -1, 1, 0.01, 0],
  ["saturationAmount", "Saturation", -1, 1, 0.01, 0],
  ["vibranceAmount", "Vibrance", -1, 1, 0.01, 0],
  ["shadowBoostAmount", "Shadows", 0, 1, 0.01, 0],
  ["boostAmount", "Boost", 0, 1, 0.01, 1],
  ["sharpnessAmount", "Sharpness", 0, 2, 0.01, 0.5],
  ["luminanceNoiseReductionAmount", "Luminance noise reduction", 0, 1, 0.01, 0],
  ["colorNoiseReductionAmount", "Colour noise reduction", 0, 1, 0.01, 0.1],
  ["moireReductionAmount", "Moiré reduction", 0, 1, 0.01, 0],
];

const path = (name) => name.split("/").map(encodeURIComponent).join("/");

export class Developer {
  constructor(root, onExport) {
    this.root = root;
    this.onExport = onExport;
    this.values = {};
    this.pending = null;
    this.busy = false;
    this.$ = (id) => root.querySelector("#" + id);
    const form = this.$("rawControls");
    for (const [key, label, min, max, step, value] of CONTROLS) {
      const input = Object.assign(document.createElement("input"), { type: "range", min, max, step, value, id: "raw-" + key });
      const output = document.createElement("output");
      output.textContent = value;
      input.addEventListener("input", () => {
        this.values[key] = Number(input.value);
        output.textContent = input.value;
        this.update();
      });
      const row = document.createElement("label");
      row.append(label, input, output);
      form.append(row);
    }
    this.$("before").addEventListener("pointerdown", () => this.show(this.beforeURL));
    this.$("before").addEventListener("pointerup", () => this.show(this.afterURL));
    for (const format of ["jpeg", "heic", "tiff"]) {
      this.$("export-" + format).addEventListener("click", () => this.export(format));
    }
  }

  async open(name) {
    this.name = name;
    this.values = {};
    this.$("rawName").textContent = name;
    const response = await fetch(`/api/develop/${path(name)}`);
    if (!response.ok) { this.$("rawStatus").textContent = await response.text(); return; }
    const defaults = await response.json();
    for (const [key, , , , , value] of CONTROLS) {
      const input = this.$("raw-" + key);
      input.value = defaults[key] ?? value;
      input.nextElementSibling.textContent = input.value;
    }
    this.values.neutralTemperature = defaults.neutralTemperature;
    this.values.neutralTint = defaults.neutralTint;
    this.beforeURL = await this.render({ neutralTemperature: defaults.neutralTemperature, neutralTint: defaults.neutralTint });
    this.update();
  }

  // Renders the newest values; changes made while a render runs collapse into one more render.
  update() {
    if (!this.name) return;
    if (this.busy) { this.pending = true; return; }
    this.busy = true;
    const started = performance.now();
    this.render(this.values).then((url) => {
      if (url) {
        if (this.afterURL && this.afterURL !== this.beforeURL) URL.revokeObjectURL(this.afterURL);
        this.afterURL = url;
        this.show(url);
        this.$("rawStatus").textContent = `preview in ${(performance.now() - started).toFixed(0)} ms`;
      }
      this.busy = false;
      if (this.pending) { this.pending = false; this.update(); }
    });
  }

  async render(values) {
    const response = await fetch(`/api/develop/${path(this.name)}?size=1024`, { method: "POST", body: JSON.stringify(values) });
    if (!response.ok) { this.$("rawStatus").textContent = await response.text(); return null; }
    return URL.createObjectURL(await response.blob());
  }

  show(url) {
    if (!url) return;
    const img = this.$("rawPreview");
    img.onload = () => this.histogram(img);
    img.src = url;
  }

  histogram(img) {
    const canvas = this.$("histogram");
    const scratch = document.createElement("canvas");
    scratch.width = img.naturalWidth;
    scratch.height = img.naturalHeight;
    const context = scratch.getContext("2d");
    context.drawImage(img, 0, 0);
    const data = context.getImageData(0, 0, scratch.width, scratch.height).data;
    const bins = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)];
    for (let i = 0; i < data.length; i += 4) { bins[0][data[i]]++; bins[1][data[i + 1]]++; bins[2][data[i + 2]]++; }
    const peak = Math.max(...bins.flatMap((b) => Array.from(b.subarray(1, 255))), 1);
    const g = canvas.getContext("2d");
    g.clearRect(0, 0, canvas.width, canvas.height);
    g.globalCompositeOperation = "lighter";
    ["#f44", "#4f4", "#48f"].forEach((colour, c) => {
      g.fillStyle = colour;
      for (let x = 0; x < 256; x++) {
        const h = Math.min(1, bins[c][x] / peak) * canvas.height;
        g.fillRect(x * canvas.width / 256, canvas.height - h, canvas.width / 256 + 0.5, h);
      }
    });
    g.globalCompositeOperation = "source-over";
  }

  async export(format) {
    this.$("rawStatus").textContent = `exporting ${format}…`;
    const response = await fetch(`/api/export/${path(this.name)}?format=${format}`, { method: "POST", body: JSON.stringify(this.values) });
    this.$("rawStatus").textContent = response.ok ? `exported ${(await response.json()).file}` : await response.text();
    if (response.ok) this.onExport();
  }
}
