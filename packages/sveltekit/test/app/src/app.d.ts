// `App.Locals.auth` and `App.PageData.session` come from @portcullis/sveltekit, as from @auth/sveltekit.
export {}
