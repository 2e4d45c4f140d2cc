package npmlibs

import (
	"slices"
	"strings"
)

// A set is one shared installation: every library a test asks for that is in
// a set is served from that set's node_modules, installed once for all tests.
type set struct {
	name string
	libs []string // "name@exact-version"
}

// sets lists every pinned library the tests use, in as few installations as
// npm allows: one, plus one per library whose version would clash with the
// first's. A test that asks for a library in no set still gets it, installed
// on its own (the way every combination was before: slower, and more disk):
// add it here.
var sets = []set{
	{name: "main", libs: []string{
		esbuild, // bundles the apps (Bundle)

		// React and the component libraries built on it (bundled, or served as UMD).
		"react@18.3.1", "react-dom@18.3.1", "preact@10.29.8",
		"@mui/material@5.18.0", "antd@6.6.8", "react-aria-components@1.22.1", "react-select@5.10.2",
		"@headlessui/react@2.2.10", "@mantine/core@8.3.18", "@mantine/hooks@8.3.18", "react-hook-form@7.92.0",
		"@dnd-kit/core@6.3.1", "@dnd-kit/sortable@10.0.0", "@dnd-kit/utilities@3.2.2",
		"react-datepicker@9.1.0", "downshift@9.4.0", "react-dropzone@20.1.4", "sweetalert2@11.26.25",
		"@radix-ui/react-dialog@1.3.1", "@radix-ui/react-select@2.4.1", "@radix-ui/react-checkbox@1.4.1",
		"@radix-ui/react-toast@1.3.1", "@radix-ui/react-label@2.1.17", "@radix-ui/react-dropdown-menu@2.2.1",
		"react-router@7.18.7",

		// Vue 3, Svelte 5 and jQuery pages, plain widgets.
		"vue@3.5.45", "element-plus@2.14.8", "vuetify@4.3.0",
		"jquery@3.7.1", "jquery-ui@1.14.2", "select2@4.1.0", "chosen-js@1.8.7",
		"svelte@5.57.3", "esbuild-svelte@0.9.5", // compiled and bundled at set-up (BundleSvelte)
		"alpinejs@3.17.5", "@alpinejs/focus@3.17.5", "bootstrap@5.3.8", "@shoelace-style/shoelace@2.20.1",
		"tippy.js@6.3.7", "@popperjs/core@2.11.8", "flatpickr@4.6.13", "intl-tel-input@29.5.1",
		"tom-select@2.6.2", "choices.js@11.2.4", "sortablejs@1.15.7", "@tanstack/virtual-core@3.19.11",
		"dropzone@5.9.3", "filepond@4.32.12", "chart.js@4.6.1",
		"socket.io-client@4.8.4", "socket.io@4.8.4", // socket.io runs in node (Server)

		// Rich editors.
		"quill@2.0.3", "tinymce@8.9.2", "@ckeditor/ckeditor5-build-classic@44.3.0",
		"prosemirror-model@1.25.13", "prosemirror-state@1.4.4", "prosemirror-view@1.44.0",
		"prosemirror-transform@1.12.7", "prosemirror-keymap@1.2.3", "prosemirror-commands@1.7.2",
		"prosemirror-schema-basic@1.2.5", "prosemirror-history@1.5.2", "prosemirror-schema-list@1.6.1",
		"orderedmap@2.1.1", "w3c-keyname@2.2.8", "rope-sequence@1.3.4",
		"@tiptap/core@3.35.0", "@tiptap/pm@3.35.0", "@tiptap/extension-document@3.35.0",
		"@tiptap/extension-paragraph@3.35.0", "@tiptap/extension-text@3.35.0",

		// MCP clients run by node (e2e).
		"@modelcontextprotocol/sdk@1.32.2", "@modelcontextprotocol/client@2.4.0",
	}},
	// vue-select 3 needs Vue 2, and the other Vue pages Vue 3: one node_modules
	// holds one vue.
	{name: "vue2", libs: []string{"vue@2.7.16", "vue-select@3.20.4"}},
	// Svelte 5.51.0, the last release that kept a node's delegated handlers as
	// __click (…) where later ones keep them under a symbol: the Svelte page is
	// tested with both, and one node_modules holds one svelte.
	{name: "svelte5.51", libs: []string{esbuild, "svelte@5.51.0", "esbuild-svelte@0.9.5"}},
}

// bare lists the libraries installed without their dependencies: the pages
// load a prebuilt file of theirs that bundles what it needs, and npm would
// otherwise install their sources' dependencies, unused.
var bare = map[string]string{
	"@ckeditor/ckeditor5-build-classic@44.3.0": "the page loads build/ckeditor.js; npm would add ≈70 MB of CKEditor sources",
	"element-plus@2.14.8":                      "the page loads dist/index.full.min.js (Vue from the page)",
	"vuetify@4.3.0":                            "the page loads dist/vuetify.min.js (Vue from the page)",
	"@mui/material@5.18.0":                     "the page loads umd/material-ui.production.min.js (React from the page)",
	"@shoelace-style/shoelace@2.20.1":          "the page loads cdn/, the build that bundles its dependencies",
}

// setFor returns the first set that holds every one of libs.
func setFor(libs []string) (set, bool) {
	for _, s := range sets {
		if !slices.ContainsFunc(libs, func(l string) bool { return !slices.Contains(s.libs, l) }) {
			return s, true
		}
	}
	return set{}, false
}

// pruned lists the files removed from an installation once npm is done: no
// test page loads them and no bundle reads them. They were more than half of
// the bytes and files npm wrote.
var pruned = []struct{ suffix, why string }{
	{".map", "source maps: only a debugger reads them (≈200 MB of the main set)"},
	{".d.ts", "TypeScript declarations: esbuild bundles JavaScript, the pages load it"},
	{".d.mts", "TypeScript declarations for ES modules"},
	{".d.cts", "TypeScript declarations for CommonJS"},
	{".ts", "TypeScript sources shipped beside the built JavaScript"},
	{".tsx", "TypeScript JSX sources shipped beside the built JavaScript"},
	{".mts", "TypeScript sources of ES modules"},
	{".cts", "TypeScript sources of CommonJS modules"},
	{".flow", "Flow type declarations"},
	{".md", "documentation: READMEs, changelogs"},
	{".markdown", "documentation"},
	{".scss", "style sheet sources: the pages load the built CSS"},
	{".sass", "style sheet sources"},
	{".less", "style sheet sources"},
	{".po", "translation sources (CKEditor): its build carries them compiled"},
}

// isPruned reports whether an installed file named name is removed.
func isPruned(name string) bool {
	for _, p := range pruned {
		if strings.HasSuffix(name, p.suffix) {
			return true
		}
	}
	return false
}
