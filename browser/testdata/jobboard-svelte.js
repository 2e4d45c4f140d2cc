// The Svelte job board's entry, as an app's main.js is (npmlibs.BundleSvelte
// compiles the .svelte files with the Svelte compiler and bundles it).
import { mount } from "svelte";
import JobBoard from "./JobBoard.svelte";

mount(JobBoard, { target: document.getElementById("app") });
