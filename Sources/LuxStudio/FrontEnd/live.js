// The Live Photo editor: play and scrub a pair, choose the key photo, trim, set the volume or mute, apply the
// seed's frame processors and any filter chain, preview the edit and save it as a new pair. The server renders
// everything through LuxLive; this page only collects the edit.

const path = (name) => name.split("/").map(encodeURIComponent).join("/");
const seconds = (t) => `${Number(t).toFixed(2)} s`;

// The seed's frame processors as LuxLive recipes: a static square crop, a time-based crop (the square slides from
// one corner through its place on the still to the other), a line screen whose width in pixels follows each frame's
// render scale, and an effect on the still only.
const processors = {
  none: {},
  square: { square: true },
  slidingSquare: { square: true, slideCrop: true },
  lineScreen: { chain: "LineScreen angle=2.356 width=6" },
  stillOnly: { photoChain: "Vignette intensity=0.8 radius=1" },
};

export class LiveEditor {
  constructor(root, onSave) {
    this.root = root;
    this.onSave = onSave;
    this.$ = (id) => root.querySelector("#" + id);
    this.busy = false;
    const video = this.$("liveVideo");
    this.$("livePlay").addEventListener("click", () => (video.paused ? video.play() : video.pause()));
    this.$("liveScrub").addEventListener("input", () => {
      video.pause();
      video.currentTime = Number(this.$("liveScrub").value);
    });
    video.addEventListener("timeupdate", () => {
      this.$("liveScrub").value = video.currentTime;
      this.$("liveTime").textContent = seconds(video.currentTime);
    });
    this.$("liveKeyHere").addEventListener("click", () => this.setKey(this.originalTime()));
    this.$("liveKeyReset").addEventListener("click", () => this.setKey(null));
    this.$("liveMute").addEventListener("change", () => {
      this.$("liveVolume").disabled = this.$("liveMute").checked;
    });
    this.$("liveProcessor").addEventListener("change", () => {
      const p = processors[this.$("liveProcessor").value] ?? {};
      this.$("liveSquare").checked = p.square ?? false;
      this.$("liveSlide").checked = p.slideCrop ?? false;
      if (p.chain !== undefined) this.$("liveChain").value = p.chain;
      if (p.photoChain !== undefined) this.$("livePhotoChain").value = p.photoChain;
    });
    this.$("liveWatermarkFile").addEventListener("change", () => this.uploadWatermark());
    this.$("livePreview").addEventListener("click", () => this.preview());
    this.$("liveSave").addEventListener("click", () => this.save());
    this.$("liveOriginal").addEventListener("click", () => this.showOriginal());
  }

  // Opens the pair whose still is `name` (a gallery name) and its movie `movie`.
  async open(name, movie) {
    this.name = name;
    this.movie = movie;
    this.key = null;
    this.$("liveName").textContent = name;
    this.$("liveStatus").textContent = "";
    const response = await fetch(`/api/live/${path(name)}`);
    if (!response.ok) {
      this.$("liveStatus").textContent = await response.text();
      return;
    }
    this.timeline = await response.json();
    const t = this.timeline;
    for (const id of ["liveScrub", "liveTrimStart", "liveTrimEnd"]) {
      Object.assign(this.$(id), { min: 0, max: t.duration, step: 0.01 });
    }
    this.$("liveTrimStart").value = 0;
    this.$("liveTrimEnd").value = t.duration;
    this.$("liveVolume").value = 1;
    this.$("liveMute").checked = false;
    this.$("liveVolume").disabled = false;
    this.$("liveInfo").textContent =
      `${t.photoWidth}×${t.photoHeight} still, ${t.videoWidth}×${t.videoHeight} movie of ${seconds(t.duration)}, ` +
      `${t.frameTimes.length} frames, photo at ${seconds(t.photoTime)}, ${t.hasAudio ? "with" : "without"} sound` +
      (t.canRenderMovie ? "" : ` — the movie cannot be re-rendered: ${t.problem}`);
    this.setKey(null);
    this.showOriginal();
  }

  // Plays the original pair: the movie from the gallery, the still beside it.
  showOriginal() {
    this.previewing = false;
    this.$("liveVideo").src = `/api/file/${path(this.movie)}`;
    this.$("liveStill").src = `/api/thumbnail/${path(this.name)}?size=480`;
    this.$("liveVideo").currentTime = this.timeline?.photoTime ?? 0;
  }

  // The player's time on the original movie's timeline (a preview starts at the trim's start).
  originalTime() {
    const t = this.$("liveVideo").currentTime;
    return this.previewing ? t + (this.edit?.trim?.[0] ?? 0) : t;
  }

  setKey(time) {
    this.key = time;
    this.$("liveKey").textContent =
      time === null ? `the original still (${seconds(this.timeline?.photoTime ?? 0)})` : `the frame at ${seconds(time)}`;
  }

  // The edit the controls describe, as the server's JSON.
  currentEdit() {
    const edit = {};
    const chain = this.$("liveChain").value.trim();
    const photoChain = this.$("livePhotoChain").value.trim();
    if (chain) edit.chain = chain;
    if (photoChain) edit.photoChain = photoChain;
    if (this.$("liveSquare").checked) edit.square = true;
    if (this.$("liveSlide").checked) edit.slideCrop = true;
    const logo = this.$("liveWatermark").value;
    if (logo) {
      edit.watermark = {
        corner: this.$("liveWatermarkCorner").value, width: Number(this.$("liveWatermarkWidth").value),
      };
      if (logo !== "bundled") edit.watermark.file = logo;
    }
    if (this.$("liveStabilize").checked) edit.stabilize = true;
    if (this.$("liveAutoTrim").checked) edit.autoTrim = true;
    const start = Number(this.$("liveTrimStart").value);
    const end = Number(this.$("liveTrimEnd").value);
    if (start > 0 || end < this.timeline.duration) edit.trim = [start, end];
    if (this.key !== null) edit.keyPhoto = this.key;
    edit.volume = this.$("liveMute").checked ? 0 : Number(this.$("liveVolume").value);
    return edit;
  }

  // Uploads the chosen PNG into the capture folder and makes it the watermark.
  async uploadWatermark() {
    const file = this.$("liveWatermarkFile").files[0];
    if (!file) return;
    this.$("liveStatus").textContent = `uploading ${file.name}…`;
    const response = await fetch(`/api/upload/${encodeURIComponent(file.name)}`, { method: "POST", body: file });
    const text = await response.text();
    if (!response.ok) {
      // The upload route refuses with {"error", "message"}.
      let message = text || `HTTP ${response.status}`;
      try { message = JSON.parse(text).message ?? message; } catch { /* not JSON: the text itself */ }
      this.$("liveStatus").textContent = message;
      return;
    }
    const saved = JSON.parse(text).file;
    this.$("liveWatermark").append(new Option(saved.split("/").pop(), saved));
    this.$("liveWatermark").value = saved;
    this.$("liveStatus").textContent = `watermark: ${saved}`;
  }

  async post(route, edit) {
    this.busy = true;
    try {
      const response = await fetch(`/api/${route}/${path(this.name)}`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(edit),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(text || `HTTP ${response.status}`);
      return JSON.parse(text);
    } finally {
      this.busy = false;
    }
  }

  // Renders a small preview of the edit and plays it.
  async preview() {
    const edit = this.currentEdit();
    this.$("liveStatus").textContent = "rendering a preview…";
    try {
      const answer = await this.post("live-preview", edit);
      this.edit = edit;
      this.previewing = true;
      this.$("liveStill").src = answer.still;
      this.$("liveVideo").src = answer.movie;
      this.$("liveStatus").textContent = "preview";
    } catch (error) {
      this.$("liveStatus").textContent = error.message;
    }
  }

  // Saves the edit as a new pair in the capture folder.
  async save() {
    this.$("liveStatus").textContent = "saving…";
    try {
      const answer = await this.post("live-save", this.currentEdit());
      this.$("liveStatus").textContent = `saved ${answer.file} and ${answer.movie}`;
      this.saved = answer;
      this.onSave();
    } catch (error) {
      this.$("liveStatus").textContent = error.message;
    }
  }
}
