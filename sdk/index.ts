// pulumi-mediahost: resources and data functions for a media hosting and CDN account.
export * from "./functions";
export * from "./resources";
