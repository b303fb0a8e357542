// Lux Studio's page: the panels, the camera socket and the gallery. No build step, nothing from the network.
import { Camera } from "/static/camera.js";
import { Developer } from "/static/developer.js";
import { FilterLab } from "/static/filterlab.js";
import { Gallery } from "/static/gallery.js";
import { LiveEditor } from "/static/live.js";

const panels = document.querySelectorAll(".panel");
function showPanel(id) {
  for (const b of document.querySelectorAll("nav button")) b.classList.toggle("active", b.dataset.panel === id);
  for (const p of panels) p.classList.toggle("active", p.id === id);
}
const developer = new Developer(document.querySelector("#developer"), () => gallery.refresh());
const lab = new FilterLab(document.querySelector("#lab"), () => gallery.refresh());
const live = new LiveEditor(document.querySelector("#live"), () => gallery.refresh());
const gallery = new Gallery(
  document.querySelector("#gallery"),
  (name) => { showPanel("developer"); developer.open(name); },
  (name) => { showPanel("lab"); lab.open(name); },
  (item) => { showPanel("live"); live.open(item.name, item.movie); });
const camera = new Camera(document.querySelector("#camera"), () => gallery.refresh());

for (const button of document.querySelectorAll("nav button")) {
  button.addEventListener("click", () => {
    showPanel(button.dataset.panel);
    if (button.dataset.panel === "gallery") gallery.refresh();
  });
}

camera.connect();
window.luxStudio = { camera, gallery, developer, lab, live };
