module perfgate/go-nethttp

go 1.22
