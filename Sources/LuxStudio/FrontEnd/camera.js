// The camera panel: viewfinder frames (binary JPEG messages), read-outs, manual controls and the shutter.

export class Camera {
  constructor(root, onCapture) {
    this.root = root;
    this.onCapture = onCapture;
    this.frames = 0;
    this.$ = (id) => root.querySelector("#" + id);
    this.bind();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const token = new URLSearchParams(location.search).get("token");
    const query = token ? "?token=" + encodeURIComponent(token) : "";
    this.socket = new WebSocket(`${scheme}//${location.host}/ws/camera${query}`);
    this.socket.binaryType = "blob";
    const status = document.querySelector("#connection");
    this.socket.onopen = () => { status.textContent = "connected"; };
    this.loadCameras();
    this.socket.onclose = () => { status.textContent = "disconnected"; };
    this.socket.onmessage = (event) => {
      if (typeof event.data === "string") this.message(JSON.parse(event.data));
      else this.frame(event.data);
    };
  }

  frame(blob) {
    const img = this.$("viewfinder");
    const url = URL.createObjectURL(blob);
    const old = img.dataset.url;
    img.src = url;
    img.dataset.url = url;
    if (old) URL.revokeObjectURL(old);
    this.frames += 1;
  }

  message(m) {
    switch (m.type) {
      case "hello": this.setRanges(m.ranges); break;
      case "status": this.showStatus(m); break;
      case "event": this.addEvent(m); break;
      case "captured": this.addLine(`request ${m.request}: ${m.files.join(", ")}`); this.onCapture(); break;
      case "error": this.$("error").textContent = m.message; break;
      case "done":
        this.$("error").textContent = "";
        if (JSON.parse(m.command).type === "device") this.reloadRanges();
        break;
    }
  }

  // The cameras to choose from: the simulated one, then the machine's V4L2 cameras (/api/cameras).
  async loadCameras() {
    const response = await fetch("/api/cameras");
    if (!response.ok) return;
    const found = await response.json();
    const options = [new Option("simulated camera", "simulated")];
    for (const c of found.cameras) options.push(new Option(`${c.name} (${c.path})`, c.path));
    this.$("device").replaceChildren(...options);
    this.$("device").value = found.active;
    this.$("device").title = found.cameras.length ? "" : "no V4L2 camera on this machine";
  }

  // The control ranges of the camera now streaming.
  async reloadRanges() {
    const response = await fetch("/api/camera");
    if (response.ok) this.setRanges(await response.json());
  }

  setRanges(r) {
    const set = (id, [min, max]) => { const e = this.$(id); e.min = min; e.max = max; };
    set("iso", r.iso);
    set("bias", r.bias);
    set("temperature", r.temperature);
    set("tint", r.tint);
    this.durationRange = r.duration;
    const scene = this.$("scene");
    scene.replaceChildren(...r.scenes.map((n) => new Option(n, n, false, n === r.scene)));
    this.$("livePhotoMode").disabled = !r.livePhoto;
    const simulated = r.device === "simulated";
    for (const id of ["scene", "lux", "handheld"]) this.$(id).disabled = !simulated;
  }

  // The duration slider is logarithmic between the format's shortest and longest exposure.
  durationSeconds() {
    const [min, max] = this.durationRange ?? [1 / 24000, 0.5];
    return min * Math.pow(max / min, Number(this.$("duration").value));
  }

  showStatus(s) {
    this.status = s;
    const wb = s.gains.map((g) => g.toFixed(2)).join(" / ");
    // A V4L2 camera without a white_balance_temperature control cannot report them: "—", not a wrong 0.
    const kelvin = s.temperature === null ? "—" : s.temperature.toFixed(0);
    const tint = s.tint === null ? "—" : s.tint.toFixed(0);
    this.$("readouts").textContent =
      `focus ${s.focusMode} · lens ${s.lensPosition.toFixed(3)}${s.isAdjustingFocus ? " (adjusting)" : ""}\n` +
      `exposure ${s.exposureMode} · ISO ${s.iso.toFixed(0)} · 1/${(1 / s.duration).toFixed(0)} s · ` +
      `bias ${s.bias.toFixed(1)} · offset ${s.offset.toFixed(2)}${s.isAdjustingExposure ? " (adjusting)" : ""}\n` +
      `white balance ${s.whiteBalanceMode} · gains ${wb} · ${kelvin} K, tint ${tint}` +
      `${s.isAdjustingWhiteBalance ? " (adjusting)" : ""}\nframes ${s.frameCount}`;
    const badges = [];
    if (s.isFlashScene) badges.push("⚡ flash");
    if (s.isStabilizationScene) badges.push("stabilisation");
    if (s.livePhotoMode) badges.push("LIVE");
    this.$("badges").replaceChildren(...badges.map((t) => Object.assign(document.createElement("span"), { textContent: t })));
  }

  addEvent(m) { this.addLine(`${m.ms.toFixed(1).padStart(8)} ms  ${m.name}${m.file ? " → " + m.file : ""}`); }

  addLine(text) {
    const li = document.createElement("li");
    li.textContent = text;
    this.$("timeline").append(li);
  }

  send(message) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  bind() {
    const on = (id, event, f) => this.$(id).addEventListener(event, f);
    const value = (id) => Number(this.$(id).value);
    on("focusMode", "change", () => this.sendFocus());
    on("lensPosition", "input", () => { this.$("focusMode").value = "locked"; this.sendFocus(); });
    on("exposureMode", "change", () => this.sendExposure());
    on("iso", "input", () => { this.$("exposureMode").value = "custom"; this.sendExposure(); });
    on("duration", "input", () => { this.$("exposureMode").value = "custom"; this.sendExposure(); });
    on("bias", "input", () => this.send({ type: "bias", value: value("bias") }));
    on("whiteBalanceMode", "change", () => this.sendWhiteBalance());
    on("temperature", "input", () => { this.$("whiteBalanceMode").value = "locked"; this.sendWhiteBalance(); });
    on("tint", "input", () => { this.$("whiteBalanceMode").value = "locked"; this.sendWhiteBalance(); });
    on("device", "change", () => this.send({ type: "device", path: this.$("device").value }));
    on("scene", "change", () => this.send({ type: "scene", name: this.$("scene").value }));
    on("lux", "change", () => this.send({ type: "scene", lux: value("lux") }));
    on("handheld", "change", () => this.send({ type: "scene", handheld: this.$("handheld").checked }));
    on("livePhotoMode", "change", () => this.send({ type: "livePhotoMode", enabled: this.$("livePhotoMode").checked }));
    on("shutter", "click", () => {
      this.$("timeline").replaceChildren();
      this.send({ type: "capture", kind: this.$("captureKind").value, prioritization: this.$("prioritization").value });
    });
  }

  sendFocus() {
    const mode = this.$("focusMode").value;
    this.send(mode === "locked" ? { type: "focus", mode, lensPosition: Number(this.$("lensPosition").value) } : { type: "focus", mode });
  }

  sendExposure() {
    const mode = this.$("exposureMode").value;
    this.send(mode === "custom"
      ? { type: "exposure", mode, iso: Number(this.$("iso").value), duration: this.durationSeconds() }
      : { type: "exposure", mode });
  }

  sendWhiteBalance() {
    const mode = this.$("whiteBalanceMode").value;
    this.send(mode === "locked"
      ? { type: "whiteBalance", mode, temperature: Number(this.$("temperature").value), tint: Number(this.$("tint").value) }
      : { type: "whiteBalance", mode });
  }
}
