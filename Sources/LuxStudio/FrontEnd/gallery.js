// The gallery panel: the session's captures and --folder images as thumbnails, a metadata panel, Live Photos
// played as one item.

const path = (name) => name.split("/").map(encodeURIComponent).join("/");

// A value of the `lux info` report as text: lists joined, objects as "key value" pairs.
const text = (value) => {
  if (Array.isArray(value)) return value.map(text).join(value.some((v) => typeof v === "object") ? "; " : " ");
  if (value !== null && typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${k} ${text(v)}`).join(", ");
  }
  return String(value);
};

// The `lux info` report (or an error) as a table: the top-level fields, then one headed section per group (exif,
// raw, heif, movie, livePhoto, ...).
const reportTable = (report) => {
  const table = document.createElement("table");
  table.className = "report";
  const row = (key, value) => {
    const r = table.insertRow();
    r.insertCell().textContent = key;
    r.insertCell().textContent = value;
  };
  const groups = [];
  for (const [key, value] of Object.entries(report)) {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) groups.push([key, value]);
    else row(key, text(value));
  }
  for (const [group, fields] of groups) {
    const header = table.insertRow().insertCell();
    header.colSpan = 2;
    header.className = "group";
    header.textContent = group;
    for (const [key, value] of Object.entries(fields)) row(key, text(value));
  }
  return table;
};

export class Gallery {
  constructor(root, onDevelop, onFilter, onEditLive) {
    this.root = root;
    this.onDevelop = onDevelop;
    this.onFilter = onFilter;
    this.onEditLive = onEditLive;
    this.items = [];
    root.addEventListener("dragover", (event) => event.preventDefault());
    root.addEventListener("drop", (event) => {
      event.preventDefault();
      this.upload([...event.dataTransfer.files]);
    });
    const chooser = root.querySelector("#uploadFiles");
    chooser.addEventListener("change", () => this.upload([...chooser.files]));
  }

  // Sends each file to the capture folder (the server checks its size and content and never replaces a file),
  // then shows what was saved, under which name, and what was refused and why.
  async upload(files) {
    const status = this.root.querySelector("#uploadStatus");
    const lines = [];
    for (const file of files) {
      status.textContent = `uploading ${file.name}…`;
      const response = await fetch(`/api/upload/${encodeURIComponent(file.name)}`, { method: "POST", body: file });
      const answer = await response.json().catch(() => ({ message: `${file.name}: HTTP ${response.status}` }));
      lines.push(response.ok ? `saved ${answer.file}` : answer.message);
    }
    status.textContent = lines.join("; ");
    await this.refresh();
  }

  async refresh() {
    const response = await fetch("/api/gallery");
    if (!response.ok) return;
    this.items = await response.json();
    const grid = this.root.querySelector("#items");
    grid.replaceChildren(...this.items.map((item) => this.tile(item)));
  }

  tile(item) {
    const div = document.createElement("div");
    div.className = "item";
    div.dataset.name = item.name;
    const img = document.createElement("img");
    img.loading = "lazy";
    img.alt = item.name;
    img.src = `/api/thumbnail/${path(item.name)}?size=256`;
    const label = document.createElement("div");
    label.innerHTML = `<span class="kind"></span> <span class="name"></span>`;
    label.querySelector(".kind").textContent = item.kind === "livePhoto" ? "LIVE" : item.kind === "raw" ? "RAW" : "";
    label.querySelector(".name").textContent = item.name.split("/").pop();
    div.append(img, label);
    div.addEventListener("click", () => this.select(item, div));
    return div;
  }

  async select(item, div) {
    for (const d of this.root.querySelectorAll(".item")) d.classList.toggle("selected", d === div);
    const details = this.root.querySelector("#details");
    const response = await fetch(`/api/info/${path(item.name)}`);
    const info = response.ok ? await response.json() : { error: await response.text() };
    const table = reportTable(info);
    const preview = document.createElement("img");
    preview.src = `/api/thumbnail/${path(item.name)}?size=1024`;
    const children = [preview];
    if (item.movie) {
      const video = document.createElement("video");
      video.src = `/api/file/${path(item.movie)}`;
      video.controls = true;
      video.muted = true;
      preview.addEventListener("mouseenter", () => video.play());
      children.push(video);
    }
    const download = document.createElement("a");
    download.href = `/api/file/${path(item.name)}`;
    download.download = item.name.split("/").pop();
    download.textContent = "Download";
    details.replaceChildren(...children, table, download);
    const filter = document.createElement("button");
    filter.textContent = "Filter lab";
    filter.addEventListener("click", () => this.onFilter(item.name));
    details.append(" ", filter);
    if (item.kind === "livePhoto") {
      const edit = document.createElement("button");
      edit.textContent = "Edit Live Photo";
      edit.addEventListener("click", () => this.onEditLive(item));
      details.append(" ", edit);
    }
    if (item.kind === "raw") {
      const develop = document.createElement("button");
      develop.textContent = "Develop";
      develop.addEventListener("click", () => this.onDevelop(item.name));
      details.append(" ", develop);
    }
  }
}
